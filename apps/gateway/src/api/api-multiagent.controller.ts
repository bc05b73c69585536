import { Controller, Get, Headers, HttpCode, Inject, Param, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AppError,
  ID_PREFIXES,
  hasIdPrefix,
  SchedulerSubjects,
  type Actor,
  type MultiagentRun,
} from '@agentry/contracts';
import {
  ApiMultiagentRunRequestSchema,
  MULTIAGENT_SYNC_MAX_TIMEOUT_SECONDS,
  multiagentReplyToApi,
  multiagentRunToApi,
  type ApiMultiagentRunRequest,
} from '@agentry/contracts/api';
import { CLOCK, NatsBus, RpcClient, type Clock } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody } from '../http/zod-params.js';
import { RunStream } from '../multiagent/run-stream.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** One wait on the scheduler; a synchronous request asks again until the run completes. */
const WAIT_SLICE_MS = 20_000;
/** After the run's own deadline, how long a synchronous request still waits for it to be written up. */
const GRACE_MS = 30_000;
const RETRY_MS = 500;

/**
 * `POST /api/multiagent/run`: one session per agent, the same message to each. The run is a durable job
 * in the scheduler; this request waits for it (the AgentScope answer, `{results}`), or with
 * `Prefer: respond-async` answers 202 with the run at once. An agent id the caller cannot see fails the
 * whole request with 404, creating nothing.
 */
@Controller('api/multiagent')
@UseFilters(ApiErrorFilter)
export class ApiMultiagentController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly bus: NatsBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('run')
  @HttpCode(200)
  async run(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiMultiagentRunRequestSchema) body: ApiMultiagentRunRequest,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const async = respondAsync(prefer);
    if (!async && body.timeoutSeconds > MULTIAGENT_SYNC_MAX_TIMEOUT_SECONDS)
      throw new AppError(
        'INVALID_REQUEST',
        `timeoutSeconds: a request that waits for its run may ask for at most ${MULTIAGENT_SYNC_MAX_TIMEOUT_SECONDS}; ` +
          'send Prefer: respond-async for a longer run',
      );
    const run = await this.rpc.request(SchedulerSubjects.startMultiagentRun, {
      actor,
      agent_ids: body.agentIds,
      message: body.message,
      environment_id: body.environmentId,
      parallel: body.parallel,
      timeout_ms: body.timeoutSeconds * 1_000,
    });
    if (async) {
      void reply
        .status(202)
        .header('location', `/api/multiagent/runs/${run.id}`)
        .header('preference-applied', 'respond-async');
      return multiagentRunToApi(run);
    }
    return toSynchronousReply(await this.untilCompleted(actor, run));
  }

  @Get('runs/:id')
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return multiagentRunToApi(await this.rpc.request(SchedulerSubjects.getMultiagentRun, { actor, id }));
  }

  /** SSE: the run now, then each change (an agent's session created, an agent settled), until it completes. */
  @Get('runs/:id/stream')
  async stream(@CurrentActor() actor: Actor, @Param('id') id: string, @Res() reply: FastifyReply) {
    // The id becomes a NATS subject token: one with spaces or wildcards names no run, and must not subscribe.
    if (!hasIdPrefix(id, ID_PREFIXES.multiagentRun))
      throw new AppError('NOT_FOUND', `Multi-agent run ${id} not found`);
    const stream = await RunStream.open(this.bus, id);
    let current: MultiagentRun;
    try {
      // Fails with 404 before any stream byte is written when the run is not the caller's.
      current = await this.rpc.request(SchedulerSubjects.getMultiagentRun, { actor, id });
    } catch (error) {
      stream.close();
      throw error;
    }
    if (!reply.raw.writable) {
      stream.close();
      throw new AppError('INVALID_REQUEST', 'client went away');
    }
    reply.hijack();
    await stream.pipe(current, reply.raw);
  }

  /** Waits in slices, so a scheduler restart mid-run costs a retry rather than the request. */
  private async untilCompleted(actor: Actor, started: MultiagentRun): Promise<MultiagentRun> {
    const giveUpAt = Date.parse(started.deadline_at) + GRACE_MS;
    let run = started;
    while (run.status !== 'completed' && this.clock.nowMs() < giveUpAt) {
      const wait = Math.max(0, Math.min(WAIT_SLICE_MS, giveUpAt - this.clock.nowMs()));
      try {
        run = await this.rpc.request(
          SchedulerSubjects.awaitMultiagentRun,
          { actor, id: run.id, wait_ms: wait },
          { timeoutMs: wait + 10_000 },
        );
      } catch (error) {
        if (AppError.is(error, 'NOT_FOUND')) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    return run;
  }
}

function respondAsync(prefer: string | undefined): boolean {
  return (prefer ?? '').split(/[,;]/).some((token) => token.trim().toLowerCase() === 'respond-async');
}

/** Entries a run never settled (it outlived the wait) read as timed out, as they did before runs were durable. */
function toSynchronousReply(run: MultiagentRun) {
  const results = run.results.map((entry) =>
    entry.status === 'pending' || entry.status === 'running'
      ? { ...entry, status: 'timeout' as const, error: entry.error ?? 'The session did not finish in time' }
      : { ...entry, status: entry.status },
  );
  return multiagentReplyToApi({ results });
}
