import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PubSubjects, type Actor } from '@agentry/contracts';
import { NatsBus, SystemClock, type Logger } from '@agentry/platform';
import { testSubjectPrefix } from '@agentry/testing';
import { AccessChangesListener } from '../src/auth/access-changes.listener.js';
import { ActorCache } from '../src/auth/actor-cache.js';
import { NatsInterceptingProxy } from './nats-intercepting-proxy.js';

const alice: Actor = {
  tenantId: 't1',
  namespaceId: 'ns1',
  userId: 'u_alice',
  apiKeyId: null,
  role: 'member',
};
const aliceKey: Actor = { ...alice, apiKeyId: 'key_1' };
const bob: Actor = { ...alice, userId: 'u_bob' };
const carol: Actor = { ...alice, userId: 'u_carol' };
const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as Logger;

const eventually = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 5_000 });

/** Another replica's view: changes announced by control on NATS reach this gateway's actor cache. */
describe('gateway: the actor cache follows access changes announced on NATS', () => {
  const prefix = testSubjectPrefix();
  const cache = new ActorCache(60_000, 100, new SystemClock());
  let proxy: NatsInterceptingProxy;
  let gatewayBus: NatsBus;
  let controlBus: NatsBus;
  let listener: AccessChangesListener;

  const fill = async () => {
    cache.clear();
    for (const [key, actor] of [
      ['u:alice', alice],
      ['k:1', aliceKey],
      ['u:bob', bob],
    ] as const) {
      await cache.resolve(key, () => Promise.resolve({ actor, notAfter: null }));
    }
  };

  beforeAll(async () => {
    proxy = await NatsInterceptingProxy.start();
    gatewayBus = await NatsBus.connect(proxy.url, prefix, 'gateway-bus');
    controlBus = await NatsBus.connect('nats://127.0.0.1:4222', prefix, 'control-bus');
    listener = new AccessChangesListener(gatewayBus, cache, quiet);
    await listener.onApplicationBootstrap();
  });
  afterAll(async () => {
    listener.onApplicationShutdown();
    await Promise.all([gatewayBus.close(), controlBus.close()]);
    await proxy.stop();
  });

  it('drops the actors a change names, and only those', async () => {
    await fill();
    controlBus.publish(PubSubjects.accessChanged, { v: 1, tenantId: 't1', userId: 'u_alice' });
    await eventually(() => cache.size === 1);
    // A change naming nobody cached must drop nothing. Changes arrive in order: once a later one has
    // dropped carol, bob (named by neither) is still cached, or the first change dropped him.
    await cache.resolve('u:carol', () => Promise.resolve({ actor: carol, notAfter: null }));
    controlBus.publish(PubSubjects.accessChanged, { v: 1, apiKeyId: 'key_2' });
    controlBus.publish(PubSubjects.accessChanged, { v: 1, tenantId: 't1', userId: 'u_carol' });
    await eventually(() => cache.size === 1);
    await cache.resolve('u:bob', () => Promise.reject(new Error('bob was dropped')));
  });

  it('drops everything after its NATS connection comes back, since changes sent meanwhile are lost', async () => {
    await fill();
    expect(proxy.cut('gateway-bus')).toBe(1);
    await eventually(() => cache.size === 0);
  });
});
