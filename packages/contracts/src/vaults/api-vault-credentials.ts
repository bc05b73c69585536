import { z } from 'zod';
import type { CreateCredentialRequest, Credential, UpdateCredentialRequest } from './vault-credentials.js';

/**
 * AgentScope credentials `{type, label, target, secret}` over the CMA credential kinds:
 * - `environment_variable`: `target` (else `label`) names the variable, `secret` is its value;
 * - `static_bearer`: `target` is the MCP server URL, `secret` the bearer token;
 * - `mcp_oauth` (AgentScope's `oauth_token` too): `target` is the MCP server URL, `secret` the access token.
 * Replies never carry the secret.
 */
const ApiCredentialTypeSchema = z.enum(
  ['environment_variable', 'static_bearer', 'mcp_oauth', 'oauth_token'],
  {
    error: 'type must be one of environment_variable, static_bearer, mcp_oauth, oauth_token',
  },
);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const ApiCreateCredentialRequestSchema = z
  .strictObject({
    type: ApiCredentialTypeSchema,
    label: z.string().max(255).optional(),
    target: z.string().min(1).optional(),
    secret: z.string({ error: 'secret must be a string' }).min(1, 'secret required'),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'environment_variable') {
      if (!ENV_NAME.test(body.target ?? body.label ?? '')) {
        ctx.addIssue({
          code: 'custom',
          path: ['target'],
          message: 'target (or label) must be an environment variable name',
        });
      }
    } else if (!z.url().safeParse(body.target).success) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: 'target must be the MCP server URL' });
    }
  });
export type ApiCreateCredentialRequest = z.infer<typeof ApiCreateCredentialRequestSchema>;

export const ApiUpdateCredentialRequestSchema = z.strictObject({
  label: z.string().max(255).optional(),
  target: z.string().min(1).optional(),
  secret: z.string().min(1, 'secret must not be empty').optional(),
});
export type ApiUpdateCredentialRequest = z.infer<typeof ApiUpdateCredentialRequestSchema>;

export const ApiCredentialSchema = z.object({
  id: z.string(),
  type: z.enum(['environment_variable', 'static_bearer', 'mcp_oauth']),
  label: z.string().nullable(),
  target: z.string(),
  createdAt: z.string(),
});
export type ApiCredential = z.infer<typeof ApiCredentialSchema>;

/** The CMA create request; its schema then checks the target (a variable name or a URL). */
export function apiCredentialToV1(body: ApiCreateCredentialRequest): CreateCredentialRequest {
  const display_name = body.label ?? null;
  switch (body.type) {
    case 'environment_variable':
      return {
        display_name,
        auth: {
          type: 'environment_variable',
          secret_name: body.target ?? body.label ?? '',
          secret_value: body.secret,
          networking: { type: 'unrestricted' },
        },
      };
    case 'static_bearer':
      return {
        display_name,
        auth: { type: 'static_bearer', mcp_server_url: body.target ?? '', token: body.secret },
      };
    case 'mcp_oauth':
    case 'oauth_token':
      return {
        display_name,
        auth: { type: 'mcp_oauth', mcp_server_url: body.target ?? '', access_token: body.secret },
      };
  }
}

/** The CMA update for a credential of `type`; the target is fixed once created (the store keys on it). */
export function apiCredentialUpdateToV1(
  type: Credential['auth']['type'],
  body: ApiUpdateCredentialRequest,
): UpdateCredentialRequest {
  const update: UpdateCredentialRequest = {};
  if (body.label !== undefined) update.display_name = body.label;
  if (body.secret !== undefined) {
    update.auth =
      type === 'environment_variable'
        ? { type, secret_value: body.secret }
        : type === 'static_bearer'
          ? { type, token: body.secret }
          : { type, access_token: body.secret };
  }
  return update;
}

/** Where a credential applies: its variable name or its MCP server URL. */
export function credentialTarget(credential: Credential): string {
  return credential.auth.type === 'environment_variable'
    ? credential.auth.secret_name
    : credential.auth.mcp_server_url;
}

export function credentialToApi(credential: Credential): ApiCredential {
  return {
    id: credential.id,
    type: credential.auth.type,
    label: credential.display_name ?? null,
    target: credentialTarget(credential),
    createdAt: credential.created_at,
  };
}
