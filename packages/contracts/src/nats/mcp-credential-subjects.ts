import { z } from 'zod';
import { rpcSubject, V1 } from './subject.js';

/** A vault credential matched to one MCP server, with the secret the dataplane sends to it. */
export const McpServerCredentialSchema = z.object({
  /** The server URL as the agent names it. */
  server_url: z.string(),
  credential_id: z.string(),
  type: z.enum(['static_bearer', 'mcp_oauth']),
  /** Sent as `Authorization: Bearer …`; never logged, stored in events or returned by a public route. */
  access_token: z.string(),
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
} as const;
