import { metrics, type Counter, type Histogram, type UpDownCounter } from '@opentelemetry/api';

/**
 * Every instrument the platform records, created once from the global meter provider (a no-op until
 * `startMetrics` ran). Labels are bounded: routes are templates, subjects and queues come from catalogs,
 * tool names are folded (see `toolLabel`), and no session, tenant or request id is ever a label.
 * Names follow the OpenTelemetry semantic conventions where one exists (HTTP, GenAI).
 */
export interface PlatformMetrics {
  httpDuration: Histogram;
  natsRequestDuration: Histogram;
  rpcHandlerDuration: Histogram;
  jobDuration: Histogram;
  turnDuration: Histogram;
  turnTimeToFirstEvent: Histogram;
  modelDuration: Histogram;
  modelTokens: Histogram;
  toolDuration: Histogram;
  leaseTakeovers: Counter;
  sseConnections: UpDownCounter;
  sseFanoutLag: Histogram;
  budgetRejections: Counter;
  retentionDeleted: Counter;
  handsSavesRefused: Counter;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576];

let cached: PlatformMetrics | undefined;

export function platformMetrics(): PlatformMetrics {
  if (cached) return cached;
  const meter = metrics.getMeter('agentry');
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: SECONDS } });
  cached = {
    httpDuration: seconds(
      'http.server.request.duration',
      'HTTP requests by method, route template and status',
    ),
    natsRequestDuration: seconds(
      'agentry.nats.request.duration',
      'NATS request/reply round trips by subject and outcome',
    ),
    rpcHandlerDuration: seconds(
      'agentry.rpc.handler.duration',
      'NATS request handling by subject and outcome',
    ),
    jobDuration: seconds('agentry.job.duration', 'BullMQ job attempts by queue and outcome'),
    turnDuration: seconds('agentry.turn.duration', 'Turns from lease to release, by stop reason'),
    turnTimeToFirstEvent: seconds(
      'agentry.turn.time_to_first_event',
      'From the start of a turn to the first event it emits (inbox wait before it: agentry.inbox.oldest_age)',
    ),
    modelDuration: seconds('gen_ai.client.operation.duration', 'Model calls (GenAI semantic conventions)'),
    modelTokens: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Tokens per model call by gen_ai.token.type',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKENS },
    }),
    toolDuration: seconds('agentry.tool.duration', 'Tool calls by tool, environment type and outcome'),
    leaseTakeovers: meter.createCounter('agentry.lease.takeovers', {
      description: 'Turns that resumed a session whose previous turn was cut off (failover)',
    }),
    sseConnections: meter.createUpDownCounter('agentry.sse.connections', {
      description: 'Open event streams',
    }),
    sseFanoutLag: seconds('agentry.sse.fanout.lag', 'From an event commit to its write on a stream'),
    budgetRejections: meter.createCounter('agentry.budget.rejections', {
      description: 'Model calls refused by a budget',
    }),
    retentionDeleted: meter.createCounter('agentry.retention.deleted', {
      description:
        'Rows deleted by retention sweeps, by kind (sessions, deployment_runs, audit_log, deleted_files)',
    }),
    handsSavesRefused: meter.createCounter('agentry.hands.workspace.saves_refused', {
      description: "Saves of a session's durable workspace refused because the worker no longer held it",
    }),
  };
  return cached;
}

/** Forgets the instruments, so the next call binds to the meter provider now installed (tests). */
export function resetPlatformMetrics(): void {
  cached = undefined;
}

/** Tool names as a bounded label: MCP tools fold to their server, anything odd to `other`. */
export function toolLabel(name: string): string {
  const mcp = /^mcp__([a-zA-Z0-9_-]{1,40})__/.exec(name);
  if (mcp) return `mcp__${mcp[1]}`;
  return /^[a-zA-Z0-9_.-]{1,64}$/.test(name) ? name : 'other';
}

/** Seconds elapsed since a `performance.now()` reading. */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
