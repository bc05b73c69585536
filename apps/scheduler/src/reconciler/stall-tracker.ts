import type { StalledSession } from './stalled-sessions.repository.js';

export interface StallVerdict {
  session: StalledSession;
  /** Turn attempts seen on the same input since this tracker first found the session stalled on it. */
  attempts: number;
  action: 'kick' | 'abandon';
}

/**
 * Tells a stalled session worth another kick from one whose turn keeps failing on the same input. Turn
 * attempts are counted by the lease's fencing token, which grows only when a runner takes the session:
 * a session merely waiting in a long queue is never abandoned, one whose runner fails or dies on every
 * attempt is, after `maxAttempts`. Kept in memory: a restarted or other scheduler replica starts counting
 * afresh, which only delays the verdict.
 */
export class StallTracker {
  private readonly firstSeen = new Map<string, { inputSeq: bigint; token: bigint }>();

  constructor(private readonly maxAttempts: number) {}

  /** Verdicts for this tick's stalled sessions; sessions no longer stalled are forgotten. */
  judge(sessions: StalledSession[]): StallVerdict[] {
    const stalled = new Set(sessions.map((s) => s.id));
    for (const id of this.firstSeen.keys()) if (!stalled.has(id)) this.firstSeen.delete(id);
    return sessions.map((session) => {
      const first = this.firstSeen.get(session.id);
      if (!first || first.inputSeq !== session.inputSeq) {
        this.firstSeen.set(session.id, { inputSeq: session.inputSeq, token: session.leaseToken });
        return { session, attempts: 0, action: 'kick' };
      }
      const attempts = Number(session.leaseToken - first.token);
      if (attempts < this.maxAttempts) return { session, attempts, action: 'kick' };
      this.firstSeen.delete(session.id);
      return { session, attempts, action: 'abandon' };
    });
  }
}
