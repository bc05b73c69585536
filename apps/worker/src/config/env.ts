import { BaseEnvSchema, loadConfig } from '@agentry/platform';
import { z } from 'zod';

export const WorkerEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8083),
  /** Where `local` environments keep per-session workdirs on this node. */
  AGENTRY_WORKDIR_ROOT: z.string().min(1).default('/var/lib/agentry/workdirs'),
  /** How long a finished tool result is remembered, so a redelivered call is answered, not re-run. */
  AGENTRY_TOOL_RESULT_TTL_SECONDS: z.coerce.number().int().positive().default(24 * 3600),
});
export type WorkerEnv = z.infer<typeof WorkerEnvSchema>;

export const loadWorkerEnv = (): WorkerEnv => loadConfig(WorkerEnvSchema);
export const WORKER_CONFIG = Symbol('WORKER_CONFIG');
