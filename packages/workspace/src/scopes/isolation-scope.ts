import { join } from 'node:path';
import { WorkspaceErrors } from '../core/workspace-errors.js';

/** Who shares a workspace: one session, one user (per agent), everyone using one agent, or the whole tenant. */
export type IsolationScope = 'SESSION' | 'USER' | 'AGENT' | 'GLOBAL';

export interface WorkspaceContext {
  tenantId: string;
  agentId: string;
  sessionId: string;
  userId?: string | null;
}

// Ids become path segments and row keys: no separators, no dot-only names.
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;

function segment(kind: string, value: string | null | undefined): string {
  if (!value || !SAFE_ID.test(value))
    throw WorkspaceErrors.invalid(`Invalid ${kind} for a workspace scope: ${JSON.stringify(value)}`);
  return value;
}

/** USER without a user id falls back to SESSION; no scope requested means USER when a user is known. */
export function effectiveScope(
  requested: IsolationScope | undefined,
  context: WorkspaceContext,
): IsolationScope {
  const scope = requested ?? (context.userId ? 'USER' : 'SESSION');
  return scope === 'USER' && !context.userId ? 'SESSION' : scope;
}

/** The root key of a scope: a relative path used as a host subdirectory or as the `root` column. */
export function scopeRootKey(requested: IsolationScope | undefined, context: WorkspaceContext): string {
  const tenant = `tenants/${segment('tenantId', context.tenantId)}`;
  const scope = effectiveScope(requested, context);
  switch (scope) {
    case 'GLOBAL':
      return `${tenant}/global`;
    case 'AGENT':
      return `${tenant}/agents/${segment('agentId', context.agentId)}/shared`;
    case 'USER':
      return `${tenant}/agents/${segment('agentId', context.agentId)}/users/${segment('userId', context.userId)}`;
    case 'SESSION':
      return `${tenant}/agents/${segment('agentId', context.agentId)}/sessions/${segment('sessionId', context.sessionId)}`;
  }
}

/** Host directory of a scope under a base directory (local and bubblewrap backends). */
export function scopeRootDir(
  baseDir: string,
  requested: IsolationScope | undefined,
  context: WorkspaceContext,
): string {
  return join(baseDir, scopeRootKey(requested, context));
}
