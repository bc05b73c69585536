import { describe, expect, it } from 'vitest';
import type { Actor } from '@agentry/contracts';
import { ManualClock, SystemClock } from '@agentry/platform';
import { ActorCache, type LoadedActor } from './actor-cache.js';

const alice: Actor = {
  tenantId: 't1',
  namespaceId: 'ns1',
  userId: 'u_alice',
  apiKeyId: null,
  role: 'member',
};
const aliceKey: Actor = { ...alice, apiKeyId: 'key_1' };
const bob: Actor = { tenantId: 't1', namespaceId: 'ns2', userId: 'u_bob', apiKeyId: null, role: 'admin' };

/** A load that counts its calls and answers `actor` (or what the test resolves it with). */
function loader(actor: Actor, notAfter: number | null = null) {
  const calls = { count: 0 };
  const load = (): Promise<LoadedActor> => {
    calls.count += 1;
    return Promise.resolve({ actor, notAfter });
  };
  return { calls, load };
}

describe('ActorCache', () => {
  it('answers from memory until the TTL passes, then asks again', async () => {
    const clock = new ManualClock(1_000);
    const cache = new ActorCache(30_000, 100, clock);
    const { calls, load } = loader(alice);
    await cache.resolve('u:alice', load);
    await cache.resolve('u:alice', load);
    expect(calls.count).toBe(1);
    clock.advance(30_001);
    await cache.resolve('u:alice', load);
    expect(calls.count).toBe(2);
  });

  it('never keeps an API key past its expiry', async () => {
    const clock = new ManualClock(1_000);
    const cache = new ActorCache(30_000, 100, clock);
    const { calls, load } = loader(aliceKey, 6_000);
    await cache.resolve('k:1', load);
    clock.set(6_001);
    await cache.resolve('k:1', load);
    expect(calls.count).toBe(2);
  });

  it('forgets exactly the actors an access change names', async () => {
    const cache = new ActorCache(30_000, 100, new SystemClock());
    await cache.resolve('u:alice', loader(alice).load);
    await cache.resolve('k:1', loader(aliceKey).load);
    await cache.resolve('u:bob', loader(bob).load);
    cache.forget({ v: 1, apiKeyId: 'key_1' });
    expect(cache.size).toBe(2);
    // A user's change also drops the API keys that act for them.
    await cache.resolve('k:1', loader(aliceKey).load);
    cache.forget({ v: 1, tenantId: 't1', userId: 'u_alice' });
    expect(cache.size).toBe(1);
    cache.forget({ v: 1, namespaceId: 'ns2' });
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer that was computed before a revocation landed', async () => {
    const cache = new ActorCache(30_000, 100, new SystemClock());
    let release: (value: LoadedActor) => void = () => undefined;
    const slow = () => new Promise<LoadedActor>((resolve) => (release = resolve));
    const pending = cache.resolve('k:1', slow);
    cache.forget({ v: 1, apiKeyId: 'key_1' });
    release({ actor: aliceKey, notAfter: null });
    await pending;
    expect(cache.size).toBe(0);
  });

  it('asks once for concurrent misses of the same credential', async () => {
    const cache = new ActorCache(30_000, 100, new SystemClock());
    const { calls, load } = loader(alice);
    await Promise.all([
      cache.resolve('u:alice', load),
      cache.resolve('u:alice', load),
      cache.resolve('u:alice', load),
    ]);
    expect(calls.count).toBe(1);
  });

  it('stays within its bound, dropping the oldest entry first', async () => {
    const cache = new ActorCache(30_000, 2, new SystemClock());
    const first = loader(alice);
    await cache.resolve('a', first.load);
    await cache.resolve('b', loader(bob).load);
    await cache.resolve('c', loader(bob).load);
    expect(cache.size).toBe(2);
    await cache.resolve('a', first.load);
    expect(first.calls.count).toBe(2);
  });

  it('with a TTL of 0 asks every time', async () => {
    const cache = new ActorCache(0, 100, new SystemClock());
    const { calls, load } = loader(alice);
    await cache.resolve('u:alice', load);
    await cache.resolve('u:alice', load);
    expect(calls.count).toBe(2);
    expect(cache.size).toBe(0);
  });
});
