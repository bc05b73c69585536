import { BaseEnvSchema, WebhookEgressEnvSchema, loadConfig } from '@agentry/platform';
import { z } from 'zod';

export const SchedulerEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8084),
  /** How often the reconciler looks for sessions whose wake-up was lost. */
  AGENTRY_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(200).default(5_000),
  /** A self-hosted tool call no worker takes within this long is answered with an error result. */
  AGENTRY_NO_RUNNER_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  AGENTRY_RECONCILE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /**
   * Turn attempts (lease acquisitions) a stalled session may use on the same input before the reconciler
   * stops re-kicking it and has it ended with a `session.error`, so a failing turn never loops forever.
   */
  AGENTRY_RECONCILE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1_000).default(10),
  /** How often the cron job schedulers are matched against the deployments table (the safety net). */
  AGENTRY_DEPLOYMENT_SYNC_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
  /**
   * A deployment run still pending or running this long after it started is taken as left behind by a
   * scheduler that stopped, and repaired by the deployment sweep.
   */
  AGENTRY_DEPLOYMENT_RUN_REPAIR_AFTER_MS: z.coerce.number().int().min(1_000).default(120_000),
  /** Concurrent sessions of one parallel multi-agent run. */
  AGENTRY_MULTIAGENT_PARALLELISM: z.coerce.number().int().min(1).max(20).default(8),
  /** A multi-agent run whose scheduler died is taken up by another replica after this long. */
  AGENTRY_MULTIAGENT_LOCK_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  /** How long a session replay may take in all; one still running then is marked failed. */
  AGENTRY_REPLAY_DEADLINE_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(3_600_000),
  /** A replay whose scheduler died is taken up by another replica (or it, restarted) after this long. */
  AGENTRY_REPLAY_LOCK_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  /**
   * Days after which the events of an archived or terminated session are deleted; 0 (the default) keeps
   * them forever. Sessions with a turn running or input pending are never touched.
   */
  AGENTRY_EVENT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** How often the event retention sweep runs when retention is on. */
  AGENTRY_EVENT_RETENTION_INTERVAL_MS: z.coerce.number().int().min(1_000).default(3_600_000),
  /**
   * Days after which an archived session is deleted with its log and threads (0, the default, keeps it).
   * A session written to since the cutoff, with a turn running or with input pending is never deleted.
   */
  AGENTRY_SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** Days after which a finished deployment run is deleted (0 keeps them). */
  AGENTRY_DEPLOYMENT_RUN_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** Days after which audit log entries are deleted (0 keeps them). */
  AGENTRY_AUDIT_LOG_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** Days after which the row of a deleted file is removed too (0 keeps it). */
  AGENTRY_DELETED_FILE_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** How often the retention sweep runs when any retention window is set. */
  AGENTRY_RETENTION_INTERVAL_MS: z.coerce.number().int().min(1_000).default(3_600_000),
  /** Rows deleted per statement by a retention sweep. */
  AGENTRY_RETENTION_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /** Statements per kind and sweep: the rest waits for the next tick. */
  AGENTRY_RETENTION_MAX_BATCHES: z.coerce.number().int().min(1).max(1_000).default(20),
  /**
   * How often every agent's daily memory ledgers are merged into its MEMORY.md (one model call per agent
   * with new entries, on the agent's model); 0 turns scheduled consolidation off.
   */
  AGENTRY_MEMORY_CONSOLIDATION_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
  /** Days a daily memory ledger (`memory/YYYY-MM-DD.md`) is kept; 0 (the default) keeps them all. */
  AGENTRY_MEMORY_PRUNE_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** How often old daily memory ledgers are pruned, when AGENTRY_MEMORY_PRUNE_DAYS is set. */
  AGENTRY_MEMORY_PRUNE_INTERVAL_MS: z.coerce.number().int().min(1_000).default(86_400_000),
  /** Attempts per webhook delivery (the first one included) before it is marked failed. */
  AGENTRY_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** Delay before the first retry of a delivery; each later retry doubles it, spread by jitter. */
  AGENTRY_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  /** How long a receiver has to answer one delivery attempt. */
  AGENTRY_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Deliveries one scheduler replica sends at once. */
  AGENTRY_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
}).extend(WebhookEgressEnvSchema.shape);
export type SchedulerEnv = z.infer<typeof SchedulerEnvSchema>;

export const loadSchedulerEnv = (): SchedulerEnv => loadConfig(SchedulerEnvSchema);
export const SCHEDULER_CONFIG = Symbol('SCHEDULER_CONFIG');
