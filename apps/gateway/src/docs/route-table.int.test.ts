import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testNatsUrl, testRedisPrefix, testRedisUrl, testSubjectPrefix } from '@agentry/testing';
import { AppModule } from '../app.module.js';
import { GatewayEnvSchema } from '../config/env.js';
import { ROUTE_TABLE } from './route-table.js';

/** `GET /v1/agents/:id` as Fastify registered it → `GET /v1/agents/{id}`, as the table writes it. */
const labelOf = (method: string, url: string) =>
  `${method} ${url.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\/\*$/, '/{path}')}`;

/**
 * The route table is the OpenAPI document's only source: every route the gateway registers with its
 * HTTP server (seen through Fastify's public `onRoute` hook) must be in it, and nothing else.
 */
describe('the route table', () => {
  let app: NestFastifyApplication;
  const registered = new Set<string>();

  beforeAll(async () => {
    const config = GatewayEnvSchema.parse({
      PORT: '0',
      AGENTRY_JWT_SECRET: 'x'.repeat(32),
      AGENTRY_LOG_LEVEL: 'silent',
      NATS_URL: testNatsUrl(),
      REDIS_URL: testRedisUrl(),
      AGENTRY_SUBJECT_PREFIX: testSubjectPrefix(),
      AGENTRY_ENV: testRedisPrefix().replace(/\W/g, ''),
    });
    const adapter = new FastifyAdapter();
    adapter.getInstance().addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) if (method !== 'HEAD') registered.add(labelOf(method, route.url));
    });
    app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
      logger: false,
    });
    await app.init();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('lists exactly the routes the gateway serves', () => {
    const documented = new Set(ROUTE_TABLE.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    expect(registered.size).toBeGreaterThan(100);
    expect(
      [...registered].filter((r) => !documented.has(r)),
      'served but not in the table',
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !registered.has(r)),
      'in the table but not served',
    ).toEqual([]);
  });

  it('has one entry per operation, each with its own operationId', () => {
    const ids = ROUTE_TABLE.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const labels = ROUTE_TABLE.map((r) => `${r.method} ${r.path}`);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
