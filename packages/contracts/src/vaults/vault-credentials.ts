import { z } from 'zod';
import { IsoDateTimeSchema, MetadataPatchSchema, MetadataSchema } from '../common/common.js';

/** Vault credentials. Requests carry secrets; the returned object never does. */

const CredentialNetworkingSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('unrestricted') }),
  z.strictObject({ type: z.literal('limited'), allowed_hosts: z.array(z.string().min(1)).max(16) }),
]);
const InjectionLocationParamsSchema = z.strictObject({
  body: z.boolean().optional(),
  header: z.boolean().optional(),
});

const TokenEndpointAuthParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('client_secret_basic'), client_secret: z.string().min(1) }),
  z.strictObject({ type: z.literal('client_secret_post'), client_secret: z.string().min(1) }),
]);

const SecretNameSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'secret_name must be a valid environment variable name');

const CredentialAuthParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('static_bearer'), mcp_server_url: z.url(), token: z.string().min(1) }),
  z.strictObject({
    type: z.literal('environment_variable'),
    secret_name: SecretNameSchema,
    secret_value: z.string().min(1),
    networking: CredentialNetworkingSchema,
    injection_location: InjectionLocationParamsSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('mcp_oauth'),
    mcp_server_url: z.url(),
    access_token: z.string().min(1),
    expires_at: IsoDateTimeSchema.nullable().optional(),
    refresh: z
      .strictObject({
        client_id: z.string().min(1),
        refresh_token: z.string().min(1),
        token_endpoint: z.url(),
        token_endpoint_auth: TokenEndpointAuthParamsSchema,
        resource: z.string().nullable().optional(),
        scope: z.string().nullable().optional(),
      })
      .nullable()
      .optional(),
  }),
]);
export type CredentialAuthParams = z.infer<typeof CredentialAuthParamsSchema>;

export const CreateCredentialRequestSchema = z.strictObject({
  auth: CredentialAuthParamsSchema,
  display_name: z.string().max(255).nullable().optional(),
  metadata: MetadataSchema.optional(),
});
export type CreateCredentialRequest = z.infer<typeof CreateCredentialRequestSchema>;

const OptionalSecret = z.string().min(1).nullable().optional();

/** The auth `type` cannot change; only its secrets and settings can. */
const CredentialAuthUpdateParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('static_bearer'), token: OptionalSecret }),
  z.strictObject({
    type: z.literal('environment_variable'),
    secret_value: OptionalSecret,
    networking: CredentialNetworkingSchema.nullable().optional(),
    injection_location: InjectionLocationParamsSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('mcp_oauth'),
    access_token: OptionalSecret,
    expires_at: IsoDateTimeSchema.nullable().optional(),
    refresh: z
      .strictObject({
        refresh_token: OptionalSecret,
        scope: z.string().nullable().optional(),
        token_endpoint_auth: z
          .strictObject({
            type: z.enum(['client_secret_basic', 'client_secret_post']),
            client_secret: OptionalSecret,
          })
          .optional(),
      })
      .nullable()
      .optional(),
  }),
]);

export const UpdateCredentialRequestSchema = z.strictObject({
  auth: CredentialAuthUpdateParamsSchema.optional(),
  display_name: z.string().max(255).nullable().optional(),
  metadata: MetadataPatchSchema.nullable().optional(),
});
export type UpdateCredentialRequest = z.infer<typeof UpdateCredentialRequestSchema>;

/** Returned auth: every secret (token, secret_value, access/refresh tokens, client secrets) is left out. */
const CredentialAuthSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('static_bearer'), mcp_server_url: z.string() }),
  z.strictObject({
    type: z.literal('environment_variable'),
    secret_name: z.string(),
    networking: CredentialNetworkingSchema,
    injection_location: z.strictObject({ body: z.boolean(), header: z.boolean() }),
  }),
  z.strictObject({
    type: z.literal('mcp_oauth'),
    mcp_server_url: z.string(),
    expires_at: IsoDateTimeSchema.nullable().optional(),
    refresh: z
      .strictObject({
        client_id: z.string(),
        token_endpoint: z.string(),
        token_endpoint_auth: z.strictObject({
          type: z.enum(['none', 'client_secret_basic', 'client_secret_post']),
        }),
        resource: z.string().nullable().optional(),
        scope: z.string().nullable().optional(),
      })
      .nullable()
      .optional(),
  }),
]);
export type CredentialAuth = z.infer<typeof CredentialAuthSchema>;

export const CredentialSchema = z.object({
  type: z.literal('vault_credential'),
  id: z.string(),
  vault_id: z.string(),
  display_name: z.string().nullable().optional(),
  auth: CredentialAuthSchema,
  metadata: MetadataSchema,
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
});
export type Credential = z.infer<typeof CredentialSchema>;

/** Strips the secrets from a create request's auth, giving what may be stored in the clear and returned. */
export function publicCredentialAuth(auth: CredentialAuthParams): CredentialAuth {
  switch (auth.type) {
    case 'static_bearer':
      return { type: 'static_bearer', mcp_server_url: auth.mcp_server_url };
    case 'environment_variable':
      return {
        type: 'environment_variable',
        secret_name: auth.secret_name,
        networking: auth.networking,
        // Unless told otherwise the secret goes into request headers only.
        injection_location: {
          body: auth.injection_location?.body ?? false,
          header: auth.injection_location?.header ?? true,
        },
      };
    case 'mcp_oauth':
      return {
        type: 'mcp_oauth',
        mcp_server_url: auth.mcp_server_url,
        expires_at: auth.expires_at ?? null,
        refresh: auth.refresh
          ? {
              client_id: auth.refresh.client_id,
              token_endpoint: auth.refresh.token_endpoint,
              token_endpoint_auth: { type: auth.refresh.token_endpoint_auth.type },
              resource: auth.refresh.resource ?? null,
              scope: auth.refresh.scope ?? null,
            }
          : null,
      };
  }
}

export const CredentialDeletedSchema = z.object({
  id: z.string(),
  type: z.literal('vault_credential_deleted'),
});
export type CredentialDeleted = z.infer<typeof CredentialDeletedSchema>;
