import { z } from 'zod';
import {
  DescriptionSchema,
  IsoDateTimeSchema,
  MetadataPatchSchema,
  MetadataSchema,
  NameSchema,
} from '../common/common.js';
import { EnvironmentBuildSchema } from './environment-build.js';

const HostListSchema = z.array(z.string().min(1).max(253)).max(256);
const PackageListSchema = z.array(z.string().min(1).max(256)).max(500);

const NetworkingParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('unrestricted') }),
  z.strictObject({
    type: z.literal('limited'),
    allowed_hosts: HostListSchema.nullable().optional(),
    allow_mcp_servers: z.boolean().nullable().optional(),
    allow_package_managers: z.boolean().nullable().optional(),
  }),
]);

const PackagesParamsSchema = z.strictObject({
  type: z.literal('packages').optional(),
  apt: PackageListSchema.nullable().optional(),
  cargo: PackageListSchema.nullable().optional(),
  gem: PackageListSchema.nullable().optional(),
  go: PackageListSchema.nullable().optional(),
  npm: PackageListSchema.nullable().optional(),
  pip: PackageListSchema.nullable().optional(),
});

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(:\d{1,5})?$/;

/**
 * Agentry extension on `cloud` and `local` configs: where the session's tools run. `bubblewrap` is a sandbox
 * on the platform's worker; `e2b` an E2B sandbox per session, from `template`, at a self-hosted E2B's
 * `api_url` / `domain` if given (the installation must allow them). The E2B API key is the installation's
 * (`AGENTRY_E2B_API_KEY`), never part of an environment. Absent: the installation's default.
 */
const SandboxProviderParamsSchema = z.strictObject({
  provider: z.enum(['bubblewrap', 'e2b']),
  template: z.string().min(1).max(256).nullable().optional(),
  api_url: z
    .string()
    .max(2048)
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
    .nullable()
    .optional(),
  domain: z.string().regex(HOSTNAME, 'must be a host name').nullable().optional(),
});
type SandboxProviderParams = z.infer<typeof SandboxProviderParamsSchema>;

const SandboxProviderSchema = z.object({
  provider: z.enum(['bubblewrap', 'e2b']),
  template: z.string().optional(),
  api_url: z.string().optional(),
  domain: z.string().optional(),
});
type SandboxProvider = z.infer<typeof SandboxProviderSchema>;

/** Longest wait for a tool confirmation that may be configured: a week. */
const MAX_TOOL_CONFIRMATION_TIMEOUT_SECONDS = 7 * 24 * 3600;

/**
 * Agentry extension on every config type: an `always_ask` call left unanswered this long after it was
 * made is denied on the user's behalf, and the turn goes on. Absent (the default): calls wait forever.
 */
const ConfirmationTimeoutParams = {
  tool_confirmation_timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOOL_CONFIRMATION_TIMEOUT_SECONDS)
    .nullable()
    .optional(),
};
const ConfirmationTimeout = { tool_confirmation_timeout_seconds: z.number().int().optional() };

/**
 * Where a session's tools run. `cloud` and `self_hosted` are CMA; `local` (tools run inside the
 * platform's own workers) and `remote` (a registered Hands host) are Agentry extensions.
 */
const EnvironmentConfigParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('cloud'),
    networking: NetworkingParamsSchema.nullable().optional(),
    packages: PackagesParamsSchema.nullable().optional(),
    sandbox: SandboxProviderParamsSchema.nullable().optional(),
    ...ConfirmationTimeoutParams,
  }),
  z.strictObject({ type: z.literal('self_hosted'), ...ConfirmationTimeoutParams }),
  z.strictObject({
    type: z.literal('local'),
    sandbox: SandboxProviderParamsSchema.nullable().optional(),
    ...ConfirmationTimeoutParams,
  }),
  z.strictObject({ type: z.literal('remote'), ...ConfirmationTimeoutParams }),
]);
export type EnvironmentConfigParams = z.infer<typeof EnvironmentConfigParamsSchema>;

export const NetworkingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('unrestricted') }),
  z.object({
    type: z.literal('limited'),
    allowed_hosts: z.array(z.string()),
    allow_mcp_servers: z.boolean(),
    allow_package_managers: z.boolean(),
  }),
]);
type Networking = z.infer<typeof NetworkingSchema>;

export const PackagesSchema = z.object({
  type: z.literal('packages').optional(),
  apt: z.array(z.string()),
  cargo: z.array(z.string()),
  gem: z.array(z.string()),
  go: z.array(z.string()),
  npm: z.array(z.string()),
  pip: z.array(z.string()),
});
export type Packages = z.infer<typeof PackagesSchema>;

const EnvironmentConfigSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('cloud'),
    networking: NetworkingSchema,
    packages: PackagesSchema,
    sandbox: SandboxProviderSchema.optional(),
    ...ConfirmationTimeout,
  }),
  z.object({ type: z.literal('self_hosted'), ...ConfirmationTimeout }),
  z.object({ type: z.literal('local'), sandbox: SandboxProviderSchema.optional(), ...ConfirmationTimeout }),
  z.object({ type: z.literal('remote'), ...ConfirmationTimeout }),
]);
export type EnvironmentConfig = z.infer<typeof EnvironmentConfigSchema>;

/** Fills the defaults of a config request (CMA: no config means an unrestricted cloud container). */
export function normalizeEnvironmentConfig(
  params: EnvironmentConfigParams | null | undefined,
): EnvironmentConfig {
  if (!params) return normalizeEnvironmentConfig({ type: 'cloud' });
  const timeout = params.tool_confirmation_timeout_seconds;
  const confirmation = timeout ? { tool_confirmation_timeout_seconds: timeout } : {};
  const sandbox =
    (params.type === 'cloud' || params.type === 'local') && params.sandbox
      ? { sandbox: normalizeSandboxProvider(params.sandbox) }
      : {};
  if (params.type === 'local') return { type: 'local', ...sandbox, ...confirmation };
  if (params.type !== 'cloud') return { type: params.type, ...confirmation };
  const net = params.networking;
  const networking: Networking =
    net?.type === 'limited'
      ? {
          type: 'limited',
          allowed_hosts: net.allowed_hosts ?? [],
          allow_mcp_servers: net.allow_mcp_servers ?? false,
          allow_package_managers: net.allow_package_managers ?? false,
        }
      : { type: 'unrestricted' };
  const p = params.packages;
  return {
    type: 'cloud',
    networking,
    packages: {
      type: 'packages',
      apt: p?.apt ?? [],
      cargo: p?.cargo ?? [],
      gem: p?.gem ?? [],
      go: p?.go ?? [],
      npm: p?.npm ?? [],
      pip: p?.pip ?? [],
    },
    ...sandbox,
    ...confirmation,
  };
}

function normalizeSandboxProvider(params: SandboxProviderParams): SandboxProvider {
  const { provider, template, api_url, domain } = params;
  return {
    provider,
    ...(template ? { template } : {}),
    ...(api_url ? { api_url } : {}),
    ...(domain ? { domain } : {}),
  };
}

const EnvironmentScopeSchema = z.enum(['organization', 'account']);

export const CreateEnvironmentRequestSchema = z.strictObject({
  name: NameSchema,
  description: DescriptionSchema.nullable().optional(),
  config: EnvironmentConfigParamsSchema.nullable().optional(),
  metadata: MetadataSchema.optional(),
  scope: EnvironmentScopeSchema.nullable().optional(),
});
export type CreateEnvironmentRequest = z.infer<typeof CreateEnvironmentRequestSchema>;

/** Partial update; the config `type` cannot change after create (checked by the service). */
export const UpdateEnvironmentRequestSchema = z.strictObject({
  name: NameSchema.nullable().optional(),
  description: DescriptionSchema.nullable().optional(),
  config: EnvironmentConfigParamsSchema.nullable().optional(),
  metadata: MetadataPatchSchema.optional(),
  scope: EnvironmentScopeSchema.nullable().optional(),
});
export type UpdateEnvironmentRequest = z.infer<typeof UpdateEnvironmentRequestSchema>;

export const EnvironmentSchema = z.object({
  type: z.literal('environment'),
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  config: EnvironmentConfigSchema,
  metadata: MetadataSchema,
  scope: EnvironmentScopeSchema.optional(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
  /** Agentry extension on `cloud` environments: the state of its sandbox image (see EnvironmentBuildSchema). */
  agentry_build: EnvironmentBuildSchema.optional(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const EnvironmentDeletedSchema = z.object({ id: z.string(), type: z.literal('environment_deleted') });
export type EnvironmentDeleted = z.infer<typeof EnvironmentDeletedSchema>;
