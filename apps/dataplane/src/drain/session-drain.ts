import { Inject, Injectable } from '@nestjs/common';
import { AppError, type StoredEvent } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { COMPACTION_EVENT, SessionLogCache } from '../event-log/session-log-cache.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import type { Acquired } from '../sessions/session-state.repository.js';
import { TurnWriter } from '../sessions/turn-writer.js';
import { TurnLeases } from './turn-leases.js';

/** A drain runs at most this many turns before handing the session back to the queue. */
const MAX_TURNS_PER_DRAIN = 20;

/** What one turn gets from the drain that holds its session's lease. */
export interface LeasedTurn extends Omit<Acquired, 'log'> {
  /** The session's log as of the lease (cached part and what the lease statement read after it). */
  log: StoredEvent[];
  /** The seq that log ends at: input committed after it is not the turn's. */
  logEndsAt: number;
  /** Every write of the turn, fenced by the lease's token. */
  writer: TurnWriter;
  /** Aborted when a renewal finds the lease taken: the turn's writes would be refused anyway. */
  leaseLost: AbortSignal;
}

/** What a turn did with its lease: whether it consumed its input or moved the session on. */
export type TurnOutcome = { progressed: boolean };

export type RunsTurn = (turn: LeasedTurn) => Promise<TurnOutcome>;

/**
 * Drains a session's inbox, one turn at a time under a fenced lease (DESIGN.md §6.1–2): takes the lease
 * with the inbox and the log after this replica's cached tail in one statement, keeps it renewed while
 * the turn runs, lets it go (unless the turn's last write did), and looks at the inbox again, so input that
 * arrived while the lease was held is never left behind.
 */
@Injectable()
export class SessionDrain {
  constructor(
    private readonly leases: TurnLeases,
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    private readonly logs: SessionLogCache,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * `more` when the drain stopped with input left after its turn budget (the caller requeues it);
   * `held` when another runner holds the lease (it looks at the inbox again when it lets go).
   */
  async drain(sessionId: string, runTurn: RunsTurn): Promise<'done' | 'more' | 'held'> {
    for (let round = 0; round < MAX_TURNS_PER_DRAIN; round += 1) {
      const from = this.logs.readFrom(sessionId);
      const acquired = await this.leases.acquire(sessionId, { from, start: COMPACTION_EVENT });
      if (!acquired) return round === 0 ? 'held' : 'done';
      const seen = new Set(acquired.inbox.map((row) => row.id));
      const { progressed, sawAll } = await this.underLease(acquired, from, runTurn);
      // Input committed after the turn's last write found the lease released and started a drain of its
      // own; input committed before it left a gap in the turn's seqs. Without one, there is none to look for.
      if (sawAll) return 'done';
      const pending = await this.events.inbox(sessionId);
      if (pending.length === 0) return 'done';
      // Input the holder saw and could not consume (the lease was lost, the status moved) is left to
      // whoever moved it, or to the reconciler, rather than spun on; anything new gets another round.
      if (!progressed && pending.every((e) => seen.has(e.id))) return 'done';
    }
    return 'more';
  }

  /**
   * Runs the turn under the lease. `sawAll`: the turn let the lease go with its last write, consumed every
   * inbox event the lease read, and nothing else was appended to the session meanwhile.
   */
  private async underLease(
    acquired: Acquired,
    from: number | null,
    runTurn: RunsTurn,
  ): Promise<{ progressed: boolean; sawAll: boolean }> {
    const { lease } = acquired;
    const keeper = this.leases.keep(lease);
    const writer = new TurnWriter(
      this.events,
      this.publisher,
      lease,
      (stored) => this.logs.remember(lease.sessionId, stored),
      acquired.logEnd,
    );
    try {
      const log = this.logs.extend(lease.sessionId, acquired.log.map(toStoredEvent), from);
      const turn = { ...acquired, log, logEndsAt: acquired.logEnd, writer, leaseLost: keeper.lost.signal };
      const { progressed } = await runTurn(turn);
      const consumedAll = acquired.inbox.every((row) => writer.consumed.has(row.id));
      return { progressed, sawAll: writer.released && writer.alone && consumedAll };
    } catch (error) {
      if (!AppError.is(error, 'CONFLICT')) throw error;
      this.logger.warn(
        { sessionId: lease.sessionId, err: error.message },
        'turn lost its lease; another runner continues',
      );
      return { progressed: false, sawAll: false };
    } finally {
      keeper.stop();
      if (!writer.released) await this.leases.release(lease).catch(() => undefined);
    }
  }
}
