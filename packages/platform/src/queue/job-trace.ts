import type { Attributes, Context } from '@opentelemetry/api';
import type { Job, JobsOptions } from 'bullmq';
import { contextFromCarrier, traceCarrier } from '../telemetry/trace-context.js';

/**
 * The trace context of a job travels in BullMQ's own propagation slot (`opts.telemetry.metadata`, a JSON
 * W3C carrier, the format of BullMQ's OpenTelemetry add-on), so payload schemas never see it.
 */
export function jobTraceOptions(): Pick<JobsOptions, 'telemetry'> {
  const carrier = traceCarrier();
  return Object.keys(carrier).length > 0 ? { telemetry: { metadata: JSON.stringify(carrier) } } : {};
}

/** The enqueuer's context; a job without one (a scheduler tick, an older job) starts a new trace. */
export function jobTraceContext(job: Job): Context {
  return contextFromCarrier(parseCarrier(job.opts.telemetry?.metadata));
}

export function jobSpanAttributes(
  queue: string,
  operation: 'send' | 'process',
  jobId?: string,
  attempt?: number,
): Attributes {
  return {
    'messaging.system': 'bullmq',
    'messaging.destination.name': queue,
    'messaging.operation.type': operation,
    ...(jobId ? { 'messaging.message.id': jobId } : {}),
    ...(attempt !== undefined ? { 'bullmq.job.attempts_made': attempt } : {}),
  };
}

function parseCarrier(metadata: string | undefined): Record<string, string> | undefined {
  if (!metadata) return undefined;
  try {
    const parsed: unknown = JSON.parse(metadata);
    if (!parsed || typeof parsed !== 'object') return undefined;
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return undefined; // a foreign or damaged carrier only costs the link, never the job
  }
}
