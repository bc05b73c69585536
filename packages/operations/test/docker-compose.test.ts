import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, SERVICES } from '@agentry/testing';

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  restart?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

const root = repoRoot();
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;

/** Start order as compose derives it from depends_on; throws on a cycle or an unknown name. */
function startOrder(): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (order.includes(name)) return;
    if (!services[name]) throw new Error(`unknown service ${name}`);
    if (visiting.has(name)) throw new Error(`dependency cycle through ${name}`);
    visiting.add(name);
    for (const dep of Object.keys(services[name].depends_on ?? {})) visit(dep);
    order.push(name);
  };
  Object.keys(services).forEach(visit);
  return order;
}

describe('docker-compose.yml (checked structurally: there is no Docker engine here)', () => {
  it('runs Postgres, Redis, NATS, the migrations one-shot and all five services', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'nats', 'migrate', ...SERVICES]),
    );
    for (const name of SERVICES) {
      expect(services[name]!.environment?.SERVICE, name).toBe(name);
      expect(services[name]!.environment?.OTEL_SERVICE_NAME).toBe(`agentry-${name}`);
    }
    const ports = SERVICES.map((name) => services[name]!.environment?.PORT);
    expect(new Set(ports).size).toBe(5);
  });

  it('starts in a health-gated order: stores healthy → migrations done → services ready → gateway', () => {
    const order = startOrder();
    const at = (name: string) => order.indexOf(name);
    for (const [name, service] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(
          ['service_healthy', 'service_completed_successfully', 'service_started'],
          `${name} → ${dep}`,
        ).toContain(condition);
        if (condition === 'service_healthy')
          expect(
            services[dep]!.healthcheck,
            `${dep} is waited on as healthy but has no healthcheck`,
          ).toBeDefined();
        if (condition === 'service_completed_successfully') expect(dep).toBe('migrate');
      }
    }
    for (const name of SERVICES) {
      expect(services[name]!.depends_on?.migrate?.condition, name).toBe('service_completed_successfully');
      expect(services[name]!.depends_on?.redis?.condition).toBe('service_healthy');
      expect(services[name]!.depends_on?.nats?.condition).toBe('service_healthy');
      expect(services[name]!.healthcheck?.test.join(' ')).toContain('/readyz');
      expect(at(name)).toBeGreaterThan(at('migrate'));
    }
    expect(services.migrate!.depends_on?.postgres?.condition).toBe('service_healthy');
    for (const store of ['postgres', 'redis', 'nats'])
      expect(services[store]!.healthcheck, store).toBeDefined();
    for (const dep of ['control', 'dataplane', 'worker'])
      expect(services.gateway!.depends_on?.[dep]?.condition).toBe('service_healthy');
    expect(at('gateway')).toBe(Math.max(...SERVICES.map(at)));
  });

  it('runs migrations once, as a one-shot that is never restarted', () => {
    expect(services.migrate!.restart).toBe('no');
    expect(services.migrate!.command?.join(' ')).toContain('prisma migrate deploy');
  });

  it('gives every service what it needs to boot, and keeps session workdirs on a volume', () => {
    for (const name of SERVICES) {
      const env = services[name]!.environment ?? {};
      for (const key of [
        'DATABASE_URL',
        'REDIS_URL',
        'NATS_URL',
        'AGENTRY_JWT_SECRET',
        'AGENTRY_MASTER_KEY',
        'AGENTRY_HOST',
      ])
        expect(env[key], `${name} ${key}`).toBeTruthy();
    }
    expect(services.worker!.volumes).toContain('workdirs:/data/workdirs');
    expect((services.gateway!.environment?.AGENTRY_JWT_SECRET ?? '').length).toBeGreaterThanOrEqual(32);
  });

  it('the observability profile mounts files that exist and scrapes every service', () => {
    for (const name of ['prometheus', 'grafana']) {
      expect(services[name]!.profiles).toEqual(['observability']);
      for (const volume of services[name]!.volumes ?? [])
        expect(existsSync(join(root, volume.split(':')[0]!)), volume).toBe(true);
    }
    const scrape = parse(
      readFileSync(join(root, 'infra', 'prometheus', 'prometheus.compose.yml'), 'utf8'),
    ) as {
      scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
    };
    for (const name of SERVICES) {
      const job = scrape.scrape_configs.find((c) => c.job_name === `agentry-${name}`);
      expect(job?.static_configs[0]?.targets).toEqual([`${name}:${services[name]!.environment?.PORT}`]);
    }
  });
});
