import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { threadLinkOf } from '../threads/thread-spec.js';
import type { Turn } from '../turns/turn.js';
import { CheckpointsRepository } from './checkpoints.repository.js';

/**
 * Every turn boundary of a session is a checkpoint. The workspace is stored before the closing write (no
 * tool call runs then, and the next turn cannot start before it), the checkpoint is sealed on the closing
 * event once that is committed. A checkpoint that cannot be taken costs the turn nothing: it is logged.
 */
@Injectable()
export class TurnCheckpoints {
  constructor(
    private readonly checkpoints: CheckpointsRepository,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

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
      await this.checkpoints.seal(id, eventId);
      if (await this.checkpoints.prune(turn.session.id, this.config.AGENTRY_CHECKPOINTS_KEPT))
        await this.checkpoints.sweep(turn.session.tenantId);
    } catch (err) {
      this.logger.warn({ sessionId: turn.session.id, err }, 'checkpoint not sealed');
    }
  }
}
