import { Queue, Worker, type Job } from 'bullmq';
import { context, SpanKind } from '@opentelemetry/api';
import type { JobDefinition } from '@agentry/contracts';
import type { z } from 'zod';
import { createRedis } from '../redis/redis-factory.js';
import type { Logger } from '../logging/logger.js';
import { inSpan, platformTracer } from '../telemetry/trace-context.js';
import { InlineLane } from './inline-lane.js';
import { toJobFailure } from './job-failure.js';
import { jobSpanAttributes, jobTraceContext, jobTraceOptions } from './job-trace.js';
import { observeQueueDepths, timeJob } from './queue-metrics.js';
import { SchedulerKeeper } from './scheduler-keeper.js';

type AnyJob = JobDefinition<z.ZodType>;

export interface JobQueueOptions {
  /** How often repeating jobs are checked and re-installed if Redis lost them (ms; 0 turns it off). */
  selfCheckMs?: number;
}

/**
 * BullMQ behind the job catalog: payloads are parsed on both ends, retries come from the catalog. A job
 * carries the trace context of whoever enqueued it, and each attempt runs in a span that continues it.
 */
export class JobQueue {
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly lanes = new Map<string, InlineLane<unknown>>();
  private readonly schedulerKeeper: SchedulerKeeper;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    private readonly logger: Logger,
    options: JobQueueOptions = {},
  ) {
    this.schedulerKeeper = new SchedulerKeeper(logger, options.selfCheckMs ?? 30_000);
    observeQueueDepths(() => [...this.queues.values()]);
  }

  private queue(definition: AnyJob): Queue {
    let queue = this.queues.get(definition.queue);
    if (!queue) {
      const connection = createRedis(this.redisUrl, { forQueue: true });
      this.schedulerKeeper.watch(connection);
      queue = new Queue(definition.queue, { connection, prefix: this.prefix });
      this.queues.set(definition.queue, queue);
    }
    return queue;
  }

  /** `jobId` names the job (a second job with a taken id is not added); otherwise the catalog's dedupe key does. */
  async enqueue<D extends AnyJob>(
    definition: D,
    payload: z.input<D['payload']>,
    delayMs = 0,
    explicitJobId?: string,
  ): Promise<void> {
    const data = definition.payload.parse(payload);
    const jobId = explicitJobId ?? definition.dedupeKey?.(data);
    const span = { kind: SpanKind.PRODUCER, attributes: jobSpanAttributes(definition.queue, 'send', jobId) };
    await inSpan(`send ${definition.queue}`, span, context.active(), () =>
      this.add(definition, data, delayMs, jobId),
    );
  }

  /**
   * Starts the job in this process when an inline lane for its queue has room (see `runInline`); false
   * when there is none, and the caller decides whether to enqueue it. The hand-off is a `send` span,
   * parent of the run.
   */
  runHere<D extends AnyJob>(definition: D, payload: z.input<D['payload']>): boolean {
    const lane = this.lanes.get(definition.queue);
    if (!lane?.hasRoom()) return false;
    const data = definition.payload.parse(payload);
    const span = { kind: SpanKind.PRODUCER, attributes: jobSpanAttributes(definition.queue, 'send') };
    return platformTracer().startActiveSpan(`send ${definition.queue}`, span, context.active(), (sent) => {
      try {
        sent.setAttribute('agentry.job.inline', true);
        return lane.tryRun(data);
      } finally {
        sent.end();
      }
    });
  }

  private async add(
    definition: AnyJob,
    data: unknown,
    delayMs: number,
    jobId: string | undefined,
  ): Promise<void> {
    await this.queue(definition).add(definition.queue, data, {
      ...(jobId ? { jobId } : {}),
      attempts: definition.attempts,
      backoff: {
        type: 'exponential',
        delay: definition.backoffMs,
        ...(definition.jitter ? { jitter: definition.jitter } : {}),
      },
      removeOnComplete: true,
      removeOnFail: 1000,
      ...(delayMs > 0 ? { delay: delayMs } : {}),
      ...jobTraceOptions(),
    });
  }

  /**
   * Lets `dispatch` run up to `limit` jobs of the queue in this process, skipping Redis on the way. Only for
   * jobs whose loss in a crash is covered elsewhere (an inline job exists nowhere but in this process).
   */
  runInline<D extends AnyJob>(
    definition: D,
    handler: (payload: z.output<D['payload']>) => Promise<void>,
    limit: number,
  ): void {
    const retry = (payload: unknown) => this.enqueue(definition, payload as z.input<D['payload']>);
    const lane = new InlineLane(
      definition.queue,
      limit,
      handler as (payload: unknown) => Promise<void>,
      retry,
      this.logger,
    );
    this.lanes.set(definition.queue, lane);
  }

  /** Removes a waiting or delayed job by id; one already running or gone is left alone. */
  async remove(definition: AnyJob, jobId: string): Promise<void> {
    await this.queue(definition).remove(jobId);
  }

  /**
   * Runs `handler` on every job of the queue; a thrown error retries per the catalog policy, unless it says
   * no retry can help (a non-retryable AppError, a payload the schema refuses): that fails the job at once. A job whose
   * process died is taken up again once its lock (`lockDurationMs`, default 30 s) expires, up to
   * `maxStalledCount` times (default 1).
   */
  process<D extends AnyJob>(
    definition: D,
    handler: (payload: z.output<D['payload']>, job: Job) => Promise<void>,
    concurrency = 4,
    options: { lockDurationMs?: number; maxStalledCount?: number } = {},
  ): void {
    const worker = new Worker(
      definition.queue,
      async (job) => {
        const span = {
          kind: SpanKind.CONSUMER,
          attributes: jobSpanAttributes(definition.queue, 'process', job.id, job.attemptsMade),
        };
        try {
          await inSpan(`process ${definition.queue}`, span, jobTraceContext(job), () =>
            timeJob(definition.queue, () =>
              handler(definition.payload.parse(job.data) as z.output<D['payload']>, job),
            ),
          );
        } catch (error) {
          throw toJobFailure(error);
        }
      },
      {
        connection: createRedis(this.redisUrl, { forQueue: true }),
        prefix: this.prefix,
        concurrency,
        ...(options.lockDurationMs
          ? { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs }
          : {}),
        ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
      },
    );
    worker.on('failed', (job, error) =>
      this.logger.warn({ queue: definition.queue, jobId: job?.id, err: error.message }, 'job failed'),
    );
    worker.on('error', (error) =>
      this.logger.error({ queue: definition.queue, err: error }, 'queue worker error'),
    );
    this.workers.push(worker);
  }

  /**
   * Installs (or updates) a repeating job; only one replica runs each tick. Redis may lose it (a
   * restart without persistence): it is installed again when the connection comes back, and by a
   * periodic self-check, so the job keeps ticking with no restart of this process.
   */
  async every<D extends AnyJob>(
    definition: D,
    everyMs: number,
    payload: z.input<D['payload']>,
  ): Promise<void> {
    const queue = this.queue(definition);
    const id = `${definition.queue}-every`;
    const data = definition.payload.parse(payload);
    const install = () =>
      queue.upsertJobScheduler(
        id,
        { every: everyMs },
        { name: definition.queue, data, opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
    await install();
    this.schedulerKeeper.keep(id, async () => {
      if (await queue.getJobScheduler(id)) return false;
      await install();
      return true;
    });
  }

  /** Runs `hook` whenever Redis may have lost job schedulers (after a reconnect, or one was found missing). */
  onSchedulersLost(hook: () => Promise<unknown>): void {
    this.schedulerKeeper.onLost(hook);
  }

  /**
   * Installs (or moves) a cron job scheduler. BullMQ names each fire `repeat:<id>:<scheduled millis>`,
   * so replicas installing the same scheduler still produce one job per scheduled time.
   */
  async cron<D extends AnyJob>(
    definition: D,
    schedulerId: string,
    schedule: { pattern: string; tz: string },
    payload: z.input<D['payload']>,
  ): Promise<void> {
    await this.queue(definition).upsertJobScheduler(
      schedulerId,
      { pattern: schedule.pattern, tz: schedule.tz },
      {
        name: definition.queue,
        data: definition.payload.parse(payload),
        opts: { attempts: definition.attempts, removeOnComplete: true, removeOnFail: 1000 },
      },
    );
  }

  async removeScheduler(definition: AnyJob, schedulerId: string): Promise<void> {
    await this.queue(definition).removeJobScheduler(schedulerId);
  }

  /** Every job scheduler of the queue with its cron pattern and time zone. */
  async schedulers(
    definition: AnyJob,
  ): Promise<Array<{ id: string; pattern: string | null; tz: string | null }>> {
    const found = await this.queue(definition).getJobSchedulers(0, -1, true);
    return found.map((s) => ({ id: s.key, pattern: s.pattern ?? null, tz: s.tz ?? null }));
  }

  async waitingCount(definition: AnyJob): Promise<number> {
    return this.queue(definition).getWaitingCount();
  }

  async close(): Promise<void> {
    this.schedulerKeeper.stop();
    await Promise.all([...this.lanes.values()].map((lane) => lane.close()));
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
