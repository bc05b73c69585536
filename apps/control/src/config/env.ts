import { BaseEnvSchema, WebhookEgressEnvSchema, loadConfig, ModelEnvSchema } from '@agentry/platform';
import { z } from 'zod';

export const ControlEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** Password of the seeded `admin` user; the default `admin` is refused in production. */
  AGENTRY_ADMIN_PASSWORD: z.string().min(1).default('admin'),
  AGENTRY_ADMIN_USERNAME: z.string().min(1).default('admin'),
  /**
   * Base64 of the 32-byte AES-256-GCM key that encrypts vault secrets at rest. Required in production;
   * elsewhere a fixed development key is used (with a warning at startup).
   */
  AGENTRY_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be base64 of exactly 32 bytes')
    .optional(),
  /**
   * Let refreshes of `mcp_oauth` credentials reach token endpoints on loopback, private, link-local and
   * metadata addresses (tests, development, an identity provider inside the installation's network).
   */
  AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Largest accepted upload; bounded because the bytes cross NATS in one message (1 MB by default). */
  AGENTRY_FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(700_000)
    .default(512 * 1024),
  /** How long a rotated-out webhook signing secret keeps signing deliveries next to the new one (seconds). */
  AGENTRY_WEBHOOK_SECRET_GRACE_SECONDS: z.coerce.number().int().min(0).max(604_800).default(86_400),
  /** Deliveries in a row that exhaust their retries before an endpoint is disabled automatically. */
  AGENTRY_WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Postgres connections of the pool behind control's prepared reads (GET by id). */
  AGENTRY_SQL_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  // Model providers: an agent may name only a model this installation can serve.
})
  .extend(ModelEnvSchema.shape)
  .extend(WebhookEgressEnvSchema.shape);
export type ControlEnv = z.infer<typeof ControlEnvSchema>;

export const loadControlEnv = (): ControlEnv => loadConfig(ControlEnvSchema);
