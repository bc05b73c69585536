import { z } from 'zod';
import { rpcSubject, V1 } from '../nats/subject.js';

/**
 * One `environment_variable` credential of a session's vaults, as the Hands need it: the sandbox sees
 * only `placeholder` in `$secret_name`, and its egress proxy swaps `secret_value` in for the placeholder
 * in requests to the credential's hosts. The secret never leaves the worker's proxy.
 */
const SandboxCredentialSchema = z.object({
  credential_id: z.string(),
  secret_name: z.string(),
  secret_value: z.string(),
  networking: z.discriminatedUnion('type', [
    z.object({ type: z.literal('unrestricted') }),
    z.object({ type: z.literal('limited'), allowed_hosts: z.array(z.string()) }),
  ]),
  injection_location: z.object({ header: z.boolean(), body: z.boolean() }),
});
export type SandboxCredential = z.infer<typeof SandboxCredentialSchema>;

/**
 * Internal: a worker asks control for the `environment_variable` credentials of a session's vaults when it
 * runs a tool call of that session. Not reachable from any public route; the reply is never logged.
 */
export const EnvironmentCredentialSubjects = {
  resolve: rpcSubject(
    'control.vault_credential.resolve_environment',
    z.object({ v: V1, tenantId: z.string().min(1), sessionId: z.string().min(1) }),
    z.object({ credentials: z.array(SandboxCredentialSchema) }),
  ),
} as const;
