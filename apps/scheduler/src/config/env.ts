import { BaseEnvSchema, loadConfig } from '@agentry/platform';
import { z } from 'zod';

export const SchedulerEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8084),
  /** How often the reconciler looks for sessions whose wake-up was lost. */
  AGENTRY_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(200).default(5_000),
  AGENTRY_RECONCILE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /**
   * Turn attempts (lease acquisitions) a stalled session may use on the same input before the reconciler
   * stops re-kicking it and has it ended with a `session.error`, so a failing turn never loops forever.
   */
  AGENTRY_RECONCILE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1_000).default(10),
  /** How often the cron job schedulers are matched against the deployments table (the safety net). */
  AGENTRY_DEPLOYMENT_SYNC_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** Concurrent sessions of one parallel multi-agent run. */
  AGENTRY_MULTIAGENT_PARALLELISM: z.coerce.number().int().min(1).max(20).default(8),
  /** A multi-agent run whose scheduler died is taken up by another replica after this long. */
  AGENTRY_MULTIAGENT_LOCK_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  /**
   * Days after which the events of an archived or terminated session are deleted; 0 (the default) keeps
   * them forever. Sessions with a turn running or input pending are never touched.
   */
  AGENTRY_EVENT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** How often the event retention sweep runs when retention is on. */
  AGENTRY_EVENT_RETENTION_INTERVAL_MS: z.coerce.number().int().min(1_000).default(3_600_000),
});
export type SchedulerEnv = z.infer<typeof SchedulerEnvSchema>;

export const loadSchedulerEnv = (): SchedulerEnv => loadConfig(SchedulerEnvSchema);
export const SCHEDULER_CONFIG = Symbol('SCHEDULER_CONFIG');
