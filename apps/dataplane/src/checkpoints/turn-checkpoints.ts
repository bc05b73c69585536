import { Inject, Injectable } from '@nestjs/common';
import { handsDurableRoots, ID_PREFIXES, newId } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import type { ClosingCheckpoint, ClosingCheckpointOutcome } from '../event-log/session-events.repository.js';
import { threadLinkOf } from '../threads/thread-spec.js';
import type { Turn } from '../turns/turn.js';
import { CheckpointsRepository } from './checkpoints.repository.js';

/** Events after which a tool may have written the session's Hands copy. */
const TOOL_USES = new Set(['agent.tool_use', 'agent.mcp_tool_use', 'agent.custom_tool_use']);

/**
 * Every turn boundary of a session is a checkpoint. The workspace is stored before the closing write (no
 * tool call runs then, and the next turn cannot start before it), the checkpoint is sealed on the closing
 * event once that is committed. A checkpoint that cannot be taken costs the turn nothing: it is logged.
 * A session whose Hands copy is empty, after a turn that ran no tool, has nothing to store: its checkpoint
 * is written and sealed by the closing statement itself (`withClosing`), two statements fewer a turn.
 */
@Injectable()
export class TurnCheckpoints {
  constructor(
    private readonly checkpoints: CheckpointsRepository,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The checkpoint the closing statement writes, or undefined when it is taken around that statement
   * (`take`, `seal`): a thread's turn takes none, and a Hands copy with entries when the lease was taken,
   * a turn that ran a tool or one resumed after a crash may have content to store first.
   */
  withClosing(turn: Turn): ClosingCheckpoint | undefined {
    const { session } = turn;
    if (threadLinkOf(session.spec) || !turn.facts.workspaceEmpty || turn.resumed) return undefined;
    if (turn.writer.committed.some((e) => TOOL_USES.has(e.event.type))) return undefined;
    return {
      id: newId(ID_PREFIXES.checkpoint),
      roots: handsDurableRoots(session.tenantId, session.id),
      keep: this.config.AGENTRY_CHECKPOINTS_KEPT,
    };
  }

  /**
   * After a closing statement that carried the checkpoint (`outcome` null: it did not commit). The Hands
   * copy gained entries meanwhile (written outside the turn): the checkpoint is taken the usual way, on
   * the committed closing event `eventId`. Content a pruned checkpoint named is swept.
   */
  async closed(turn: Turn, outcome: ClosingCheckpointOutcome | null, eventId: string): Promise<void> {
    if (!outcome) return;
    if (!outcome.taken) return this.seal(turn, await this.take(turn), eventId);
    if (!outcome.blobsFreed) return;
    await this.checkpoints.sweep(turn.session.tenantId).catch((err: unknown) => {
      this.logger.warn({ sessionId: turn.session.id, err }, 'checkpoint blobs not swept');
    });
  }

  /** The pending checkpoint's id; undefined for a thread's turn (its session's turns are the boundaries). */
  async take(turn: Turn): Promise<string | undefined> {
    if (threadLinkOf(turn.session.spec)) return undefined;
    const id = newId(ID_PREFIXES.checkpoint);
    try {
      await this.checkpoints.capture(turn.session.tenantId, turn.session.id, id);
      return id;
    } catch (err) {
      this.logger.warn({ sessionId: turn.session.id, err }, 'checkpoint not taken');
      return undefined;
    }
  }

  /** Seals the checkpoint on `eventId` (null: the closing write did not commit) and keeps the newest. */
  async seal(turn: Turn, id: string | undefined, eventId: string | null): Promise<void> {
    if (!id) return;
    try {
      if (!eventId) return await this.checkpoints.drop(id);
      if (await this.checkpoints.sealAndPrune(id, eventId, this.config.AGENTRY_CHECKPOINTS_KEPT))
        await this.checkpoints.sweep(turn.session.tenantId);
    } catch (err) {
      this.logger.warn({ sessionId: turn.session.id, err }, 'checkpoint not sealed');
    }
  }
}
