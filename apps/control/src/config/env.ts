import { BaseEnvSchema, loadConfig } from '@agentry/platform';
import { z } from 'zod';

export const ControlEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** Password of the seeded `admin` user; the default `admin` is refused in production. */
  AGENTRY_ADMIN_PASSWORD: z.string().min(1).default('admin'),
  AGENTRY_ADMIN_USERNAME: z.string().min(1).default('admin'),
});
export type ControlEnv = z.infer<typeof ControlEnvSchema>;

export const loadControlEnv = (): ControlEnv => loadConfig(ControlEnvSchema);
