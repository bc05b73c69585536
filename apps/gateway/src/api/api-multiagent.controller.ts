import { Controller, HttpCode, Post, UseFilters } from '@nestjs/common';
import {
  ApiMultiagentRunReplySchema,
  ApiMultiagentRunRequestSchema,
  SchedulerSubjects,
  multiagentReplyToApi,
  type Actor,
  type ApiMultiagentRunRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { ZodBody } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** How long every session of a run may take to settle; the reply waits at most this (plus set-up). */
const RUN_TIMEOUT_MS = 120_000;

/**
 * `POST /api/multiagent/run`: the scheduler fans the message out to one session per agent and waits for
 * each to settle. An agent id the caller cannot see fails the whole request with 404, creating nothing.
 */
@Controller('api/multiagent')
@UseFilters(ApiErrorFilter)
export class ApiMultiagentController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('run')
  @HttpCode(200)
  @DocReply(ApiMultiagentRunReplySchema)
  async run(@CurrentActor() actor: Actor, @ZodBody(ApiMultiagentRunRequestSchema) body: ApiMultiagentRunRequest) {
    const reply = await this.rpc.request(
      SchedulerSubjects.runMultiagent,
      { actor, agent_ids: body.agentIds, message: body.message, environment_id: body.environmentId, parallel: body.parallel, timeout_ms: RUN_TIMEOUT_MS },
      // Sequential runs wait for each agent in turn, all within the one deadline the scheduler keeps.
      { timeoutMs: RUN_TIMEOUT_MS + 30_000 },
    );
    return multiagentReplyToApi(reply);
  }
}
