/** The reply header that names the replica which answered (see RpcServerOptions.replicaId). */
export const REPLICA_HEADER = 'agentry-replica';

/** How often a replica says it is alive (see PrefixedServerNats). */
export const REPLICA_BEAT_MS = 500;
/** A replica not heard from for this long is not sent requests directly (frozen, stopped, gone). */
const LIVE_FOR_MS = 1_500;
/** A replica that let a request go unanswered past the hedge is passed over for this long. */
const SUSPECT_FOR_MS = 5_000;

interface ReplicaState {
  seenAt: number;
  suspectUntil: number;
}

/** Subscribes to one service's replica beats, calling `onBeat` with each replica's id. */
export type ReplicaWatch = (service: string, onBeat: (replicaId: string) => void) => void;

/**
 * What a caller knows of each service's replicas: which beat lately (a frozen process stops beating but
 * still holds its NATS subscriptions, so the queue group goes on routing requests to it) and which let a
 * request go unanswered. Idempotent requests go to a live replica picked here, on its own subject; while
 * none is known they go to the queue group.
 */
export class ReplicaRouter {
  private readonly services = new Map<string, Map<string, ReplicaState>>();

  constructor(
    private readonly watch?: ReplicaWatch,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A live, unsuspected replica of `service` not in `exclude`; none while none is known. */
  pick(service: string, exclude: ReadonlySet<string>): string | undefined {
    const replicas = this.replicasOf(service);
    const now = this.now();
    const usable: string[] = [];
    for (const [id, state] of replicas) {
      if (now - state.seenAt > LIVE_FOR_MS) continue;
      if (state.suspectUntil <= now && !exclude.has(id)) usable.push(id);
    }
    return usable[Math.floor(Math.random() * usable.length)];
  }

  /** Whether some replica of `service` beat or answered lately, suspected or not. */
  heardFrom(service: string): boolean {
    const now = this.now();
    for (const state of this.replicasOf(service).values()) if (now - state.seenAt <= LIVE_FOR_MS) return true;
    return false;
  }

  /** The replica beat or answered just now. */
  answered(service: string, replicaId: string): void {
    const state = this.replicasOf(service).get(replicaId);
    if (state) state.seenAt = this.now();
    else this.replicasOf(service).set(replicaId, { seenAt: this.now(), suspectUntil: 0 });
  }

  stalled(service: string, replicaId: string): void {
    const state = this.services.get(service)?.get(replicaId);
    if (state) state.suspectUntil = this.now() + SUSPECT_FOR_MS;
  }

  /** Nothing listens on the replica's own subject any more: it stopped. */
  gone(service: string, replicaId: string): void {
    this.services.get(service)?.delete(replicaId);
  }

  private replicasOf(service: string): Map<string, ReplicaState> {
    let replicas = this.services.get(service);
    if (!replicas) {
      replicas = new Map();
      this.services.set(service, replicas);
      this.watch?.(service, (replicaId) => this.answered(service, replicaId));
    }
    return replicas;
  }
}
