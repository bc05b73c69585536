import { BaseEnvSchema, loadConfig } from '@agentry/platform';
import { z } from 'zod';

export const GatewayEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Signs user tokens; every gateway replica must share it. */
  AGENTRY_JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  AGENTRY_JWT_TTL_SECONDS: z.coerce.number().int().positive().default(12 * 3600),
  AGENTRY_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(4 * 1024 * 1024),
  /** SSE keep-alive comment interval (DESIGN: at most 15 s). */
  AGENTRY_SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(15_000).default(15_000),
  /** Wrong passwords for one username within the window that lock it for the lockout time. */
  AGENTRY_LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  AGENTRY_LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  AGENTRY_LOGIN_LOCKOUT_SECONDS: z.coerce.number().int().min(1).default(300),
});
export type GatewayEnv = z.infer<typeof GatewayEnvSchema>;

export const loadGatewayEnv = (): GatewayEnv => loadConfig(GatewayEnvSchema);
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
