import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@agentry/testing';
import { helm, helmBinary } from '../src/helm.js';
import { parseManifests, validateKubeObject, type KubeObject } from '../src/kube-validate.js';

const chart = join(repoRoot(), 'helm', 'agentry');
const VALUES = {
  default: join(chart, 'ci', 'default-values.yaml'),
  production: join(chart, 'ci', 'production-values.yaml'),
};

function render(valuesFile: string, ...extra: string[]): KubeObject[] {
  const run = helm(['template', 'rel', chart, '--namespace', 'agentry', '-f', valuesFile, ...extra]);
  if (run.status !== 0) throw new Error(run.stderr);
  return parseManifests(run.stdout);
}

const byKind = (objects: KubeObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: KubeObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
/** What these tests read of a rendered container. */
interface Container {
  readinessProbe: { httpGet: { path: string } };
  livenessProbe: { httpGet: { path: string } };
  resources: { requests: { cpu?: string }; limits: { memory?: string } };
  ports: Array<{ name: string }>;
  securityContext?: Record<string, unknown>;
  env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: unknown } }>;
  envFrom?: unknown[];
  volumeMounts: Array<{ mountPath: string }>;
  command?: string[];
}
type Volume = { name: string; persistentVolumeClaim?: { claimName: string }; emptyDir?: object };
type PodSpec = { containers: Container[]; volumes?: Volume[]; hostUsers?: boolean };
const podSpec = (o: KubeObject) => (o.spec as { template: { spec: PodSpec } }).template.spec;

describe('helm/agentry rendered with the real helm binary and checked against the Kubernetes schemas', () => {
  const rendered: Record<keyof typeof VALUES, KubeObject[]> = { default: [], production: [] };

  beforeAll(() => {
    expect(helmBinary()).toMatch(/helm$/);
    for (const name of Object.keys(VALUES) as Array<keyof typeof VALUES>)
      rendered[name] = render(VALUES[name]);
  });

  it.each(Object.entries(VALUES))('helm lint --strict passes with the %s values', (_name, file) => {
    const run = helm(['lint', chart, '--strict', '-f', file]);
    expect(run.stdout + run.stderr).toContain('0 chart(s) failed');
    expect(run.status).toBe(0);
  });

  it.each(Object.keys(VALUES))(
    'every object rendered for the %s values is valid against its Kubernetes schema',
    async (name) => {
      const objects = rendered[name as keyof typeof VALUES];
      expect(objects.length).toBeGreaterThan(20);
      const problems = (await Promise.all(objects.map(validateKubeObject))).flat();
      expect(problems).toEqual([]);
    },
  );

  it('the schema check is not vacuous: a broken object is reported', async () => {
    const bad = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: { replicas: 'two', template: {} },
    };
    expect(await validateKubeObject(bad)).not.toEqual([]);
    expect(
      await validateKubeObject({ apiVersion: 'example.com/v1', kind: 'Nope', metadata: { name: 'x' } }),
    ).not.toEqual([]);
  });

  it('values.schema.json rejects bad values; credentials left out are generated, stores left out are named', () => {
    const badType = helm([
      'template',
      'rel',
      chart,
      '-f',
      VALUES.default,
      '--set',
      'services.gateway.replicas=two',
    ]);
    expect(badType.status).not.toBe(0);
    expect(badType.stderr).toContain('services.gateway.replicas');
    const unknownKey = helm([
      'template',
      'rel',
      chart,
      '-f',
      VALUES.default,
      '--set',
      'servics.gateway.replicas=2',
    ]);
    expect(unknownKey.status).not.toBe(0);
    const bare = helm(['template', 'rel', chart]);
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain(
      'connections.databaseUrl (or connections.existingSecret, or bundled.postgres.enabled) is required',
    );
    const stores = [
      'connections.databaseUrl=postgresql://db/agentry',
      'connections.redisUrl=redis://redis',
      'connections.natsUrl=nats://nats',
    ];
    const generated = helm(['template', 'rel', chart, ...stores.flatMap((s) => ['--set', s])]);
    expect(generated.stderr).toBe('');
    const credentials = named(parseManifests(generated.stdout), 'Secret', 'rel-agentry-credentials')!;
    const data = (credentials as unknown as { stringData: Record<string, string> }).stringData;
    expect(data.jwtSecret!.length).toBeGreaterThanOrEqual(32);
    expect(data.adminPassword!.length).toBeGreaterThanOrEqual(16);
    expect(Buffer.from(data.masterKey!, 'base64')).toHaveLength(32);
  });

  it('every service has probes, resource requests and limits, a metrics port, and a disruption budget that never blocks a drain', () => {
    for (const objects of Object.values(rendered)) {
      const deployments = byKind(objects, 'Deployment').filter(
        (d) =>
          d.metadata.labels?.['app.kubernetes.io/name'] === 'agentry' &&
          !/(redis|nats)$/.test(d.metadata.name),
      );
      expect(deployments.map((d) => d.metadata.name).sort()).toEqual(
        ['control', 'dataplane', 'gateway', 'scheduler', 'worker'].map((s) => `rel-agentry-${s}`),
      );
      for (const deployment of deployments) {
        const [container] = podSpec(deployment).containers;
        expect(container!.readinessProbe.httpGet.path, deployment.metadata.name).toBe('/readyz');
        expect(container!.livenessProbe.httpGet.path).toBe('/healthz');
        expect(container!.resources.requests.cpu).toBeDefined();
        expect(container!.resources.limits.memory).toBeDefined();
        expect(container!.ports.map((p) => p.name)).toEqual(['http', 'metrics']);
      }
      for (const pdb of byKind(objects, 'PodDisruptionBudget'))
        expect((pdb.spec as { maxUnavailable: number }).maxUnavailable).toBe(1);
    }
  });

  it('runs two schedulers, one worker on a private disk by default, and workers that scale on private disks too', () => {
    const scheduler = named(rendered.default, 'Deployment', 'rel-agentry-scheduler')!;
    expect((scheduler.spec as { replicas: number }).replicas).toBe(2);
    const worker = named(rendered.default, 'Deployment', 'rel-agentry-worker')!;
    expect((worker.spec as { replicas: number }).replicas).toBe(1);
    expect(podSpec(worker).volumes?.[0]).toEqual({ name: 'workdirs', emptyDir: {} });
    const prodWorker = named(rendered.production, 'Deployment', 'rel-agentry-worker')!;
    expect(podSpec(prodWorker).volumes?.[0]?.persistentVolumeClaim?.claimName).toBe('rel-agentry-workspaces');
    const claim = named(rendered.production, 'PersistentVolumeClaim', 'rel-agentry-workspaces')!;
    expect((claim.spec as { accessModes: string[] }).accessModes).toEqual(['ReadWriteMany']);
    expect(named(rendered.production, 'HorizontalPodAutoscaler', 'rel-agentry-worker')).toBeDefined();
    // Sessions are bound to one worker and their workspaces persisted in Postgres: no shared volume needed.
    const scaledWorker = named(
      render(VALUES.default, '--set', 'services.worker.replicas=3'),
      'Deployment',
      'rel-agentry-worker',
    )!;
    expect((scaledWorker.spec as { replicas: number }).replicas).toBe(3);
    expect(podSpec(scaledWorker).volumes?.[0]).toEqual({ name: 'workdirs', emptyDir: {} });
  });

  it('gives the worker pod what its sandboxes need and nothing more, the other services none of it', () => {
    const worker = named(rendered.default, 'Deployment', 'rel-agentry-worker')!;
    const spec = podSpec(worker);
    expect(spec.hostUsers).toBe(false);
    const container = spec.containers[0]!;
    expect(container.securityContext).toEqual({
      runAsUser: 1000,
      runAsGroup: 1000,
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'Unconfined' },
      appArmorProfile: { type: 'Unconfined' },
      procMount: 'Unmasked',
    });
    expect(container.env).toContainEqual({ name: 'AGENTRY_USERLAND', value: '/opt/agentry/userland/root' });
    expect(container.volumeMounts.map((m) => m.mountPath)).toEqual([
      '/data/workdirs',
      '/var/cache/agentry/userland',
      '/tmp',
    ]);
    const gateway = podSpec(named(rendered.default, 'Deployment', 'rel-agentry-gateway')!);
    expect(gateway.hostUsers).toBeUndefined();
    expect(gateway.containers[0]!.securityContext).toBeUndefined();
  });

  it('keeps settings in a ConfigMap and every credential or URL in Secrets, and uses existing Secrets when named', () => {
    const config = named(rendered.default, 'ConfigMap', 'rel-agentry-config')!;
    const text = JSON.stringify(config);
    expect(text).not.toMatch(/ci-admin|ci-postgres|ci-only-jwt|postgresql:\/\//);
    expect(named(rendered.default, 'Secret', 'rel-agentry-credentials')).toBeDefined();
    expect(named(rendered.default, 'Secret', 'rel-agentry-connections')).toBeDefined();
    expect(byKind(rendered.production, 'Secret')).toEqual([]);
    const gateway = podSpec(named(rendered.production, 'Deployment', 'rel-agentry-gateway')!).containers[0]!;
    expect(gateway.envFrom).toEqual([
      { configMapRef: { name: 'rel-agentry-config' } },
      { secretRef: { name: 'agentry-connections' } },
    ]);
    const jwt = gateway.env.find((e) => e.name === 'AGENTRY_JWT_SECRET');
    expect(jwt?.valueFrom?.secretKeyRef).toEqual({ name: 'agentry-credentials', key: 'jwtSecret' });
    for (const objects of Object.values(rendered))
      expect(JSON.stringify(byKind(objects, 'Deployment'))).not.toMatch(
        /ci-admin|ci-postgres|postgresql:\/\//,
      );
  });

  it('bundles Postgres, Redis and NATS for a quick start and none in production', () => {
    expect(named(rendered.default, 'StatefulSet', 'rel-agentry-postgres')).toBeDefined();
    expect(named(rendered.default, 'Deployment', 'rel-agentry-redis')).toBeDefined();
    expect(named(rendered.default, 'Deployment', 'rel-agentry-nats')).toBeDefined();
    expect(byKind(rendered.production, 'StatefulSet')).toEqual([]);
  });

  it('runs migrations as a hook Job and ships a helm test that runs a turn', () => {
    for (const objects of Object.values(rendered)) {
      const job = byKind(objects, 'Job')[0]!;
      expect(job.metadata.annotations?.['helm.sh/hook']).toMatch(/pre-upgrade/);
      expect(JSON.stringify(podSpec(job).containers[0]!.command)).toContain('prisma migrate deploy');
      const test = named(objects, 'Pod', 'rel-agentry-smoke-turn')!;
      expect(test.metadata.annotations?.['helm.sh/hook']).toBe('test');
      const script = named(objects, 'ConfigMap', 'rel-agentry-smoke-turn')!;
      expect((script.data as Record<string, string>)['smoke-turn.mjs']).toContain('/api/auth/login');
    }
  });

  it('network policies let only the services (workers persist workspaces) reach Postgres, and keep sandboxes off private networks and metadata', () => {
    const objects = render(VALUES.default, '--set', 'networkPolicy.enabled=true');
    const postgres = named(objects, 'NetworkPolicy', 'rel-agentry-postgres')!;
    const allowed = JSON.stringify(postgres.spec);
    expect(allowed).toContain('dataplane');
    expect(allowed).toContain('worker');
    expect(allowed).not.toContain('gateway');
    const egress = named(objects, 'NetworkPolicy', 'rel-agentry-worker-egress')!;
    const spec = egress.spec as {
      policyTypes: string[];
      egress: Array<{ to?: Array<{ ipBlock?: { except: string[] } }> }>;
    };
    expect(spec.policyTypes).toEqual(['Egress']);
    const except = spec.egress.flatMap((r) => r.to ?? []).flatMap((t) => t.ipBlock?.except ?? []);
    expect(except).toEqual(expect.arrayContaining(['169.254.0.0/16', '10.0.0.0/8']));
    expect(byKind(render(VALUES.default), 'NetworkPolicy')).toEqual([]);
    expect(byKind(rendered.production, 'NetworkPolicy').length).toBeGreaterThanOrEqual(6);
  });
});
