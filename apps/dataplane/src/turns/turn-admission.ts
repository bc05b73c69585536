import { Inject, Injectable } from '@nestjs/common';
import type { StoredEvent } from '@agentry/contracts';
import { openToolCalls } from '@agentry/harness';
import { LOGGER, type Logger } from '@agentry/platform';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import type { LeasedTurn } from '../drain/session-drain.js';
import { isClientToolResult, redundantToolResults } from '../hands/tool-call-ledger.js';
import { buildConversation } from '../conversation/conversation-builder.js';
import { redundantElicitationAnswers } from '../conversation/mcp-elicitations.js';
import { withRollbacks } from '../conversation/rollbacks.js';
import { ThreadTurns } from '../threads/thread-turns.js';
import { SessionTermination } from './session-termination.js';
import { isInterrupt, turnInput } from './turn-abort.js';
import { MID_TURN_STATUSES } from './turn-takeover.js';

/** Whether the lease runs a turn: `idle` when there is nothing to do, `settled` when the lease consumed its input without one. */
export type Admission =
  | { kind: 'idle' }
  | { kind: 'settled' }
  | { kind: 'turn'; input: StoredEvent[]; interrupted: boolean; resumed: boolean };

/**
 * The pipeline's first stage: what this lease is for. An archived session or an empty inbox runs
 * nothing; a terminated or orphaned session is closed for good; input that can change nothing (a
 * duplicate worker result, an interrupt with nothing to stop) is consumed without a turn.
 */
@Injectable()
export class TurnAdmission {
  constructor(
    private readonly events: SessionEventsRepository,
    private readonly termination: SessionTermination,
    private readonly threads: ThreadTurns,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async admit({ session, facts, inbox: rows, log, writer }: LeasedTurn): Promise<Admission> {
    if (session.archivedAt) return { kind: 'idle' };
    // Every status this lease writes, from here to the turn's end, is a thread's own on a thread's row.
    this.threads.restyleStatuses(session, writer);
    const inbox = rows.map(toStoredEvent);
    const resumed = MID_TURN_STATUSES.has(session.status);
    if (!resumed && inbox.length === 0) return { kind: 'idle' };
    if (!resumed && (await this.dropRedundant(session.id, inbox, log))) return { kind: 'settled' };
    const { input, interrupted } = turnInput(inbox);
    const consumed = input.map((e) => e.event.id);
    if (session.status === 'terminated') {
      await writer.finish(
        ['terminated'],
        'terminated',
        { type: 'session.status_terminated' },
        { consume: consumed },
      );
      return { kind: 'settled' };
    }
    if (await this.termination.terminateIfOrphaned(facts.lost, writer, consumed)) return { kind: 'settled' };
    return { kind: 'turn', input, interrupted, resumed };
  }

  /**
   * Worker results that answer nothing new (a duplicate delivery, a call already closed), and an interrupt
   * with no turn to stop and no call left waiting, are consumed without a turn, so they neither produce a
   * second result nor flip the session through running.
   */
  private async dropRedundant(sessionId: string, inbox: StoredEvent[], log: StoredEvent[]): Promise<boolean> {
    if (
      inbox.every(isInterrupt) &&
      openToolCalls(buildConversation(withRollbacks(log), sessionId)).length === 0
    ) {
      await this.events.markProcessed(
        sessionId,
        inbox.map((e) => e.event.id),
      );
      return true;
    }
    if (inbox.every((e) => e.event.type === 'user.mcp_elicitation_response')) {
      const ignored = redundantElicitationAnswers(log, inbox);
      if (ignored.length !== inbox.length) return false;
      await this.events.markProcessed(sessionId, ignored);
      this.logger.info(
        { sessionId, events: ignored },
        'ignored MCP elicitation answers that apply to nothing',
      );
      return true;
    }
    if (!inbox.every(isClientToolResult)) return false;
    const redundant = redundantToolResults(log, inbox);
    if (redundant.length !== inbox.length) return false;
    await this.events.markProcessed(sessionId, redundant);
    this.logger.info({ sessionId, events: redundant }, 'ignored tool results that answer no open call');
    return true;
  }
}
