import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';

/** A vault credential matched to one MCP server, with the secret the dataplane sends to it. */
const McpServerCredentialSchema = z.object({
  /** The server URL as the agent names it. */
  server_url: z.string(),
  credential_id: z.string(),
  vault_id: z.string().optional(),
  type: z.enum(['static_bearer', 'mcp_oauth']),
  /** Sent as `Authorization: Bearer …`; never logged, stored in events or returned by a public route. */
  access_token: z.string(),
  /** `mcp_oauth`: when the access token expires (null: unknown), and whether it can be refreshed. */
  expires_at: z.string().nullable().optional(),
  refreshable: z.boolean().optional(),
});
export type McpServerCredential = z.infer<typeof McpServerCredentialSchema>;

/**
 * Internal: the dataplane asks control for the credentials of a session's vaults that match its agent's MCP
 * servers, at the moment it connects to them. Not reachable from any public route.
 */
export const McpCredentialSubjects = {
  resolve: rpcSubject(
    'control.vault_credential.resolve_mcp',
    z.object({
      v: V1,
      tenantId: z.string().min(1),
      sessionId: z.string().min(1),
      serverUrls: z.array(z.string().min(1)).max(20),
    }),
    z.object({ credentials: z.array(McpServerCredentialSchema) }),
  ),
  /**
   * Internal: the dataplane asks control to refresh an `mcp_oauth` credential of the session (its token expired
   * or the server refused it). Control calls the credential's token endpoint, keeps the new tokens sealed and
   * answers with the new access token; a failure is an error whose message says why.
   */
  refresh: rpcSubject(
    'control.vault_credential.refresh_mcp',
    z.object({
      v: V1,
      tenantId: z.string().min(1),
      sessionId: z.string().min(1),
      credentialId: z.string().min(1),
    }),
    z.object({ access_token: z.string(), expires_at: z.string().nullable() }),
  ),
  /**
   * Internal: the dataplane hands control the token an MCP consent yielded, taken out of the answering
   * caller's `user.mcp_elicitation_response`. Control keeps it sealed as a `static_bearer` credential for the
   * server URL in that caller's consent vault (made on first use), replacing the caller's earlier token for
   * the same URL. The reply names the credential, never the token.
   */
  storeConsent: rpcSubject(
    'control.vault_credential.store_consent',
    z.object({
      v: V1,
      actor: ActorSchema,
      serverUrl: z.string().min(1),
      serverName: z.string().min(1),
      accessToken: z.string().min(1),
    }),
    z.object({ vault_id: z.string(), credential_id: z.string() }),
  ),
} as const;
