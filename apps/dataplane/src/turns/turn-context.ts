import { Inject, Injectable } from '@nestjs/common';
import { handsCallKey } from '@agentry/contracts';
import type { RunInput } from '@agentry/harness';
import { CLOCK, REDIS, type Clock } from '@agentry/platform';
import type { Redis } from 'ioredis';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { HandsBindings } from '../hands/hands-bindings.js';
import { redisRecordedResults, type RecordedResultLookup } from '../hands/recorded-results.js';
import { SELF_HOSTED_TOOL_NAMES } from '../hands/self-hosted-tools.js';
import { buildConversation } from '../conversation/conversation-builder.js';
import { resumeFacts, withWaitingMessages } from '../conversation/resume-facts.js';
import { withRollbacks } from '../conversation/rollbacks.js';
import type { Turn } from './turn.js';

/**
 * The pipeline's third stage: the conversation rebuilt from the log the lease read, and what the log says
 * of the tool calls still open (results delivered, confirmations, calls a crash cut off with what their
 * Hands recorded), for the harness's `planResume` to decide.
 */
@Injectable()
export class TurnContext {
  private readonly recorded: RecordedResultLookup;
  private readonly bindings: HandsBindings;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(DATAPLANE_CONFIG) config: DataplaneEnv,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.recorded = redisRecordedResults(redis);
    this.bindings = new HandsBindings(redis, config.AGENTRY_HANDS_BINDING_LEASE_MS, clock);
  }

  async read(turn: Turn): Promise<RunInput> {
    const log = withRollbacks(turn.log);
    const conversation = buildConversation(log, turn.session.id);
    const facts = await resumeFacts(conversation, log, turn.input, {
      recorded: this.recorded,
      stillRunning: (toolUseId) => this.takenByLiveWorker(toolUseId),
      ...(turn.selfHosted ? { awaitsWorker: (name: string) => SELF_HOSTED_TOOL_NAMES.has(name) } : {}),
    });
    return { ...withWaitingMessages(conversation, facts), ...facts };
  }

  /** A cut-off call a live worker took: it still runs there, or that worker keeps its result. */
  private async takenByLiveWorker(toolUseId: string): Promise<boolean> {
    const workerId = await this.redis.get(handsCallKey(toolUseId));
    return workerId !== null && (await this.bindings.isAlive(workerId));
  }
}
