import { z } from 'zod';

/** One BullMQ queue: its payload and its retry policy. */
export interface JobDefinition<S extends z.ZodType> {
  readonly queue: string;
  readonly payload: S;
  readonly attempts: number;
  readonly backoffMs: number;
  /** Spreads each retry delay by up to this fraction of it, so failures retried together drift apart. */
  readonly jitter?: number;
  /** Jobs with the same key coalesce while one exists (BullMQ jobId); undefined means no coalescing. */
  readonly dedupeKey?: (payload: z.output<S>) => string | undefined;
}

function job<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

const SessionDrainJobSchema = z.object({
  v: z.literal(1).default(1),
  sessionId: z.string().min(1),
  tenantId: z.string().min(1),
  /**
   * `abandon`: the reconciler saw the same input fail this often and asks for the session to be ended.
   * `expire_confirmations`: tool calls have waited for a confirmation past the environment's timeout.
   * `no_runner`: self-hosted tool calls (`toolUseIds`) no worker took within `waitedSeconds`.
   */
  reason: z
    .enum(['inbound', 'reconcile', 'recheck', 'takeover', 'abandon', 'expire_confirmations', 'no_runner'])
    .default('inbound'),
  /** With `no_runner`: the calls to answer with an error result, and how long they waited. */
  toolUseIds: z.array(z.string()).optional(),
  waitedSeconds: z.number().nonnegative().optional(),
  /** With `abandon`: how many turn attempts failed on that input. */
  failedAttempts: z.number().int().min(0).optional(),
});
export type SessionDrainJob = z.infer<typeof SessionDrainJobSchema>;

/** A dream to run, by id (the row holds everything else). */
const DreamJobSchema = z.object({
  v: z.literal(1).default(1),
  dreamId: z.string().min(1),
  tenantId: z.string().min(1),
});

const ReconcileJobSchema = z.object({ v: z.literal(1).default(1) });

/** One cron fire of a deployment; the scheduled time comes from the BullMQ job scheduler that made it. */
const DeploymentFireJobSchema = z.object({
  v: z.literal(1).default(1),
  deploymentId: z.string().min(1),
  tenantId: z.string().min(1),
  namespaceId: z.string().min(1),
});
export type DeploymentFireJob = z.infer<typeof DeploymentFireJobSchema>;

/** A durable multi-agent run; its state lives in the `multiagent_runs` table, so a rerun picks up where it stopped. */
const MultiagentRunJobSchema = z.object({
  v: z.literal(1).default(1),
  runId: z.string().min(1),
  tenantId: z.string().min(1),
});

/** A session replay; its state lives in `session_replays` and the replay session's log, so a rerun resumes it. */
const SessionReplayJobSchema = z.object({
  v: z.literal(1).default(1),
  replayId: z.string().min(1),
  tenantId: z.string().min(1),
});

/**
 * Something happened that webhook endpoints may subscribe to. `session` events name the session (its
 * tenant and namespace are looked up); the others carry them. `eventId` is the webhook event's id.
 */
const WebhookEventJobSchema = z.object({
  v: z.literal(1).default(1),
  eventId: z.string().min(1),
  type: z.string().min(1),
  occurredAt: z.string().min(1),
  resourceId: z.string().min(1),
  tenantId: z.string().min(1).optional(),
  namespaceId: z.string().min(1).optional(),
  sessionId: z.string().min(1).optional(),
  sessionThreadId: z.string().min(1).optional(),
  vaultId: z.string().min(1).optional(),
});
export type WebhookEventJob = z.infer<typeof WebhookEventJobSchema>;

/** One delivery of one event to one endpoint; its row in `webhook_deliveries` holds the rest. */
const WebhookDeliveryJobSchema = z.object({
  v: z.literal(1).default(1),
  deliveryId: z.string().min(1),
  tenantId: z.string().min(1),
});
export type WebhookDeliveryJob = z.infer<typeof WebhookDeliveryJobSchema>;

export const Jobs = {
  /** Kick a session whose inbox has unprocessed events; the runner drains until empty. */
  sessionDrain: job({
    queue: 'session-drain',
    payload: SessionDrainJobSchema,
    attempts: 5,
    backoffMs: 500,
    // No job-id coalescing: a kick coalesced with a job that is about to complete is lost. Kicks
    // coalesce on a pending-kick flag the drain lowers before reading the inbox (dataplane SessionWakeups).
  }),
  /** Periodic sweep: sessions with a pending inbox or an unfinished turn and no live lease. */
  reconcile: job({ queue: 'reconcile', payload: ReconcileJobSchema, attempts: 1, backoffMs: 0 }),
  /** Cron deployments: one job scheduler per active scheduled deployment. Never retried: a fire runs at most once. */
  deploymentFire: job({
    queue: 'deployment-fire',
    payload: DeploymentFireJobSchema,
    attempts: 1,
    backoffMs: 0,
  }),
  /** One multi-agent run; retried after a crash, resuming from the sessions it already created. */
  multiagentRun: job({
    queue: 'multiagent-run',
    payload: MultiagentRunJobSchema,
    attempts: 5,
    backoffMs: 1_000,
    dedupeKey: (payload) => `marun-${payload.runId}`,
  }),
  /** One session replay; retried after a crash, resuming from the inputs its session already has. */
  sessionReplay: job({
    queue: 'session-replay',
    payload: SessionReplayJobSchema,
    attempts: 5,
    backoffMs: 1_000,
    dedupeKey: (payload) => `rpl-${payload.replayId}`,
  }),
  /** Periodic sweep deleting the events of sessions ended longer ago than the retention window. */
  eventRetention: job({ queue: 'event-retention', payload: ReconcileJobSchema, attempts: 1, backoffMs: 0 }),
  /** Periodic retention sweep: archived sessions, finished deployment runs, audit log, deleted files. */
  retention: job({ queue: 'retention', payload: ReconcileJobSchema, attempts: 1, backoffMs: 0 }),
  /** Periodic consolidation of every agent's daily memory ledgers into its MEMORY.md. */
  memoryConsolidation: job({
    queue: 'consolidate-memory',
    payload: ReconcileJobSchema,
    attempts: 1,
    backoffMs: 0,
  }),
  /** Periodic deletion of agents' daily memory ledgers past their age. */
  memoryPruning: job({ queue: 'prune-memory', payload: ReconcileJobSchema, attempts: 1, backoffMs: 0 }),
  /** Runs one dream; a dream is run once (a crash mid-run leaves it for its owner to retry). */
  dream: job({
    queue: 'dream',
    payload: DreamJobSchema,
    attempts: 1,
    backoffMs: 0,
    dedupeKey: (payload) => `dream-${payload.dreamId}`,
  }),
  /** Fans a webhook event out to the endpoints subscribed to it; one job per event id. */
  webhookEvent: job({
    queue: 'webhook-event',
    payload: WebhookEventJobSchema,
    attempts: 10,
    backoffMs: 1_000,
    dedupeKey: (payload) => `whevt-${payload.eventId}`,
  }),
  /**
   * Sends one delivery; a failed attempt is retried with exponential backoff and jitter. The scheduler's
   * configuration sets the attempts and the first delay (these are the defaults).
   */
  webhookDelivery: job({
    queue: 'webhook-delivery',
    payload: WebhookDeliveryJobSchema,
    attempts: 8,
    backoffMs: 10_000,
    jitter: 0.5,
  }),
  /** Periodic sweep that makes the deployment job schedulers match the deployments table. */
  deploymentSync: job({ queue: 'deployment-sync', payload: ReconcileJobSchema, attempts: 1, backoffMs: 0 }),
} as const;
