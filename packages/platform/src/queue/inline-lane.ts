import { context, SpanKind } from '@opentelemetry/api';
import type { Logger } from '../logging/logger.js';
import { inSpan } from '../telemetry/trace-context.js';
import { isUnrecoverable } from './job-failure.js';
import { jobSpanAttributes } from './job-trace.js';
import { timeJob } from './queue-metrics.js';

/**
 * Jobs of one queue run in this process, up to `limit` at once, without the trip through Redis: a
 * dispatch that finds room starts the handler at once; one that finds none is left to the shared queue.
 * An inline run that throws is handed to the queue (`retry`), so the catalog's retries still apply; one
 * whose error says no retry can help is not.
 */
export class InlineLane<P> {
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly queue: string,
    private readonly limit: number,
    private readonly handler: (payload: P) => Promise<void>,
    private readonly retry: (payload: P) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  hasRoom(): boolean {
    return !this.closed && this.running.size < this.limit;
  }

  /** True when the job started here; false when the caller must enqueue it. */
  tryRun(payload: P): boolean {
    if (!this.hasRoom()) return false;
    const attributes = jobSpanAttributes(this.queue, 'process');
    const run = inSpan(
      `process ${this.queue}`,
      { kind: SpanKind.CONSUMER, attributes },
      context.active(),
      () => timeJob(this.queue, () => this.handler(payload)),
    )
      .catch(async (error: unknown) => {
        if (isUnrecoverable(error)) {
          this.logger.warn(
            { queue: this.queue, err: (error as Error).message },
            'inline job failed; not retryable',
          );
          return;
        }
        this.logger.warn(
          { queue: this.queue, err: (error as Error).message },
          'inline job failed; handed to the queue',
        );
        await this.retry(payload).catch((lost: unknown) =>
          this.logger.error(
            { queue: this.queue, err: (lost as Error).message },
            'inline job could not be handed to the queue',
          ),
        );
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return true;
  }

  /** Refuses new runs and waits for the ones under way. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
  }
}
