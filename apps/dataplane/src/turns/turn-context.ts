import { Inject, Injectable } from '@nestjs/common';
import type { RunInput } from '@agentry/harness';
import { REDIS } from '@agentry/platform';
import type { Redis } from 'ioredis';
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

  constructor(@Inject(REDIS) redis: Redis) {
    this.recorded = redisRecordedResults(redis);
  }

  async read(turn: Turn): Promise<RunInput> {
    const log = withRollbacks(turn.log);
    const conversation = buildConversation(log, turn.session.id);
    const facts = await resumeFacts(conversation, log, turn.input, {
      recorded: this.recorded,
      ...(turn.selfHosted ? { awaitsWorker: (name: string) => SELF_HOSTED_TOOL_NAMES.has(name) } : {}),
    });
    return { ...withWaitingMessages(conversation, facts), ...facts };
  }
}
