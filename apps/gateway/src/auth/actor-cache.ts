import type { Actor, ParsedAccessChanged } from '@agentry/contracts';
import type { Clock } from '@agentry/platform';

interface CachedActor {
  actor: Actor;
  expiresAt: number;
}

/** What a load returns: the actor and, for an expiring credential, when it stops being valid (epoch ms). */
export interface LoadedActor {
  actor: Actor;
  notAfter: number | null;
}

/**
 * Resolved callers, kept for a short while so a request needs no round trip to control. Bounded
 * (oldest out first) and short-lived; `forget` drops what an access change affects. A load that was in
 * flight while something was forgotten is answered but not kept, so a revocation cannot be undone by
 * a slow answer computed before it.
 */
export class ActorCache {
  private readonly entries = new Map<string, CachedActor>();
  private readonly loading = new Map<string, Promise<Actor>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async resolve(key: string, load: () => Promise<LoadedActor>): Promise<Actor> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.clock.nowMs()) return hit.actor;
    if (hit) this.entries.delete(key);
    if (this.ttlMs === 0) return (await load()).actor;
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight;
    const promise: Promise<Actor> = this.loadAndKeep(key, load).finally(() => {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    });
    this.loading.set(key, promise);
    return promise;
  }

  /** Drops every actor that matches all the fields the change names. */
  forget(change: ParsedAccessChanged): void {
    this.generation += 1;
    this.loading.clear();
    for (const [key, { actor }] of this.entries) {
      if (matches(actor, change)) this.entries.delete(key);
    }
  }

  clear(): void {
    this.generation += 1;
    this.loading.clear();
    this.entries.clear();
  }

  private async loadAndKeep(key: string, load: () => Promise<LoadedActor>): Promise<Actor> {
    const generation = this.generation;
    const { actor, notAfter } = await load();
    if (generation !== this.generation) return actor;
    const expiresAt = Math.min(this.clock.nowMs() + this.ttlMs, notAfter ?? Number.POSITIVE_INFINITY);
    this.entries.set(key, { actor, expiresAt });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return actor;
  }
}

function matches(actor: Actor, change: ParsedAccessChanged): boolean {
  return (
    (change.tenantId === undefined || change.tenantId === actor.tenantId) &&
    (change.namespaceId === undefined || change.namespaceId === actor.namespaceId) &&
    (change.userId === undefined || change.userId === actor.userId) &&
    (change.apiKeyId === undefined || change.apiKeyId === actor.apiKeyId)
  );
}
