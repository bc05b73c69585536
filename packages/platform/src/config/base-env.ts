import { z } from 'zod';

/** Settings every service reads. Service-specific schemas extend this one. */
export const BaseEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/agentry'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Deployment name: namespaces Redis keys (`agentry:{env}:`) and NATS subjects of one installation. */
  AGENTRY_ENV: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default('dev'),
  /** Optional NATS subject prefix, so several installations (or test runs) share one NATS server. */
  AGENTRY_SUBJECT_PREFIX: z
    .string()
    .regex(/^([a-zA-Z0-9_-]+\.)?$/, 'must be empty or a token followed by a dot, e.g. "staging."')
    .default(''),
  AGENTRY_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  AGENTRY_HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535),
  AGENTRY_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
});
export type BaseEnv = z.infer<typeof BaseEnvSchema>;
