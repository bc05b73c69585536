import { BaseEnvSchema, loadConfig, ModelEnvSchema } from '@agentry/platform';
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
  /**
   * How long a resolved caller (user token or API key) is reused without asking control. Control
   * publishes every access change and each replica drops what it affects at once; the TTL only bounds
   * the damage of a lost message. 0 turns the cache off.
   */
  AGENTRY_ACTOR_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  AGENTRY_ACTOR_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).default(10_000),
  /** A stream whose unsent output passes this is closed; the client resumes with Last-Event-ID. */
  AGENTRY_SSE_MAX_BUFFERED_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** A watched session with nothing new for this long asks the log whether it missed an event. */
  AGENTRY_SSE_RECHECK_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  // Only which keys are present is read here: it picks the `/api` default model.
}).extend(ModelEnvSchema.shape);
export type GatewayEnv = z.infer<typeof GatewayEnvSchema>;

export const loadGatewayEnv = (): GatewayEnv => loadConfig(GatewayEnvSchema);
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
