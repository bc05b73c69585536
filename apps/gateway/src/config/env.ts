import { BaseEnvSchema, loadConfig, ModelEnvSchema } from '@agentry/platform';
import { z } from 'zod';

export const GatewayEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Signs user tokens; every gateway replica must share it. */
  AGENTRY_JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /**
   * The key that signed user tokens before the current one. Its tokens stay valid until
   * AGENTRY_JWT_PREVIOUS_SECRET_ACCEPTED_UNTIL (default: one token lifetime after the gateway starts).
   */
  AGENTRY_JWT_PREVIOUS_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  AGENTRY_JWT_PREVIOUS_SECRET_ACCEPTED_UNTIL: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
    .optional(),
  AGENTRY_JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 3600),
  AGENTRY_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
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
  /** Requests per window per API key, user, worker environment key, and (unauthenticated) client IP; 0 = unlimited. */
  AGENTRY_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  AGENTRY_RATE_LIMIT_PER_API_KEY: z.coerce.number().int().min(0).default(6000),
  AGENTRY_RATE_LIMIT_PER_USER: z.coerce.number().int().min(0).default(6000),
  AGENTRY_RATE_LIMIT_PER_ENVIRONMENT: z.coerce.number().int().min(0).default(6000),
  AGENTRY_RATE_LIMIT_PER_IP: z.coerce.number().int().min(0).default(600),
  /** Calls of one deployment's webhook URL per window (runs it may start), on top of the caller's address limit. */
  AGENTRY_RATE_LIMIT_PER_DEPLOYMENT_WEBHOOK: z.coerce.number().int().min(0).default(60),
  /** Open SSE streams one API key or user may hold across replicas; 0 = unlimited. */
  AGENTRY_SSE_MAX_CONNECTIONS_PER_PRINCIPAL: z.coerce.number().int().min(0).default(1000),
  /** A stream slot not renewed for this long (its replica died) is free again. */
  AGENTRY_SSE_SLOT_LEASE_MS: z.coerce.number().int().min(300).max(600_000).default(60_000),
  AGENTRY_ACTOR_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  AGENTRY_ACTOR_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).default(10_000),
  /** A stream whose unsent output passes this is closed; the client resumes with Last-Event-ID. */
  AGENTRY_SSE_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** A watched session with nothing new for this long asks the log whether it missed an event. */
  AGENTRY_SSE_RECHECK_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** The console's built files (`apps/console/dist`), served at `/console`; empty: next to this gateway's build. */
  AGENTRY_CONSOLE_DIR: z.string().default(''),
  // Only which keys are present is read here: it picks the `/api` default model.
}).extend(ModelEnvSchema.shape);
export type GatewayEnv = z.infer<typeof GatewayEnvSchema>;

export const loadGatewayEnv = (): GatewayEnv => loadConfig(GatewayEnvSchema);
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
