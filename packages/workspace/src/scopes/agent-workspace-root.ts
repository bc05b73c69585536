import { scopeRootKey } from './isolation-scope.js';

/**
 * The root of an agent's shared (AGENT scope) workspace, without a session: where the agent's
 * definition files live for every turn, and where whoever edits them must write.
 */
export function agentWorkspaceRoot(tenantId: string, agentId: string): string {
  // AGENT scope never reads the session id; an empty one keeps the shape of the context.
  return scopeRootKey('AGENT', { tenantId, agentId, sessionId: '' });
}
