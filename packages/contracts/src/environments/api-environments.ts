import { z } from 'zod';
import type {
  CreateEnvironmentRequest,
  Environment,
  EnvironmentConfigParams,
  UpdateEnvironmentRequest,
} from './environments.js';

/**
 * AgentScope environment types. `sandbox` (a cloud container) is served by the `cloud` config;
 * the default stays `local` as in AgentScope.
 */
const ApiEnvironmentTypeSchema = z.enum(['local', 'sandbox', 'cloud', 'remote', 'self_hosted']);
type ApiEnvironmentType = z.infer<typeof ApiEnvironmentTypeSchema>;

const ApiEnvironmentConfigSchema = z
  .object({
    networking: z.unknown().optional(),
    packages: z.unknown().optional(),
    sandbox: z.unknown().optional(),
  })
  .catchall(z.unknown());

export const ApiCreateEnvironmentRequestSchema = z.object({
  name: z.string().min(1, 'name required').max(256),
  description: z.string().max(2048).nullish(),
  type: ApiEnvironmentTypeSchema.default('local'),
  config: ApiEnvironmentConfigSchema.nullish(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type ApiCreateEnvironmentRequest = z.infer<typeof ApiCreateEnvironmentRequestSchema>;

export const ApiUpdateEnvironmentRequestSchema = z.object({
  name: z.string().min(1).max(256).optional(),
  description: z.string().max(2048).nullish(),
  config: ApiEnvironmentConfigSchema.nullish(),
});
export type ApiUpdateEnvironmentRequest = z.infer<typeof ApiUpdateEnvironmentRequestSchema>;

export const ApiEnvironmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(['local', 'cloud', 'remote', 'self_hosted']),
  config: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
  /** The environment key in clear text: only in the create and rotate-key replies. */
  apiKey: z.string().optional(),
});
export type ApiEnvironment = z.infer<typeof ApiEnvironmentSchema>;

function toConfig(
  type: ApiEnvironmentType,
  config: ApiCreateEnvironmentRequest['config'],
): EnvironmentConfigParams {
  // `sandbox` (the provider the tools run in) is read as on `/v1`, and validated there.
  const provider = config?.sandbox !== undefined ? { sandbox: config.sandbox } : {};
  if (type === 'local') return { type, ...provider } as EnvironmentConfigParams;
  if (type !== 'sandbox' && type !== 'cloud') return { type };
  // Unknown sandbox keys (templateId, apiKey, …) have no meaning here and are dropped.
  const cloud: Record<string, unknown> = { type: 'cloud', ...provider };
  if (config?.networking !== undefined) cloud.networking = config.networking;
  if (config?.packages !== undefined) cloud.packages = config.packages;
  return cloud as EnvironmentConfigParams;
}

/** Maps an `/api` create body to `/v1`; validate the result with `CreateEnvironmentRequestSchema`. */
export function apiEnvironmentToV1(req: ApiCreateEnvironmentRequest): CreateEnvironmentRequest {
  const out: CreateEnvironmentRequest = { name: req.name, config: toConfig(req.type, req.config) };
  if (req.description !== undefined) out.description = req.description;
  if (req.metadata) out.metadata = req.metadata;
  return out;
}

/** The stored type decides how an `/api` config patch is read; the type itself never changes. */
export function apiEnvironmentUpdateToV1(
  req: ApiUpdateEnvironmentRequest,
  current: Environment,
): UpdateEnvironmentRequest {
  const out: UpdateEnvironmentRequest = {};
  if (req.name !== undefined) out.name = req.name;
  if (req.description !== undefined) out.description = req.description;
  if (req.config) out.config = toConfig(current.config.type, req.config);
  return out;
}

export function v1EnvironmentToApi(env: Environment, apiKey?: string): ApiEnvironment {
  const { type, ...config } = env.config;
  const out: ApiEnvironment = {
    id: env.id,
    name: env.name,
    description: env.description,
    type: type,
    config,
    metadata: env.metadata,
    createdAt: env.created_at,
    updatedAt: env.updated_at,
    archivedAt: env.archived_at,
  };
  if (apiKey !== undefined) out.apiKey = apiKey;
  return out;
}
