import { AppError, type Actor, type DeploymentError } from '@agentry/contracts';
import type { Deployment as DeploymentRow } from '@agentry/db';
import type { ReferenceServices } from './deployment-references.js';

/** Run errors that will not fix themselves: the run fails and the deployment pauses, as CMA does. */
export const AUTO_PAUSING_ERRORS: ReadonlySet<string> = new Set([
  'agent_archived_error',
  'environment_archived_error',
  'environment_not_found_error',
  'vault_not_found_error',
  'vault_archived_error',
  'memory_store_archived_error',
  'session_resource_not_found_error',
]);

type Lookup = { archivedAt: Date | null } | null;

/**
 * Checks what a run needs before a session is created, and names the first thing missing with the
 * CMA run error type. Null means the session can be created.
 */
export async function preflightRun(
  actor: Actor,
  row: DeploymentRow,
  services: ReferenceServices,
): Promise<DeploymentError | null> {
  const agent = await found(
    services.agents.require(actor, row.agentId, row.agentVersion ?? undefined).then((a) => a.agent),
  );
  if (!agent)
    return { type: 'session_resource_not_found_error', message: `Agent ${row.agentId} no longer exists` };
  if (agent.archivedAt) return { type: 'agent_archived_error', message: `Agent ${row.agentId} is archived` };

  const environment = await found(services.environments.require(actor, row.environmentId));
  if (!environment)
    return {
      type: 'environment_not_found_error',
      message: `Environment ${row.environmentId} no longer exists`,
    };
  if (environment.archivedAt)
    return { type: 'environment_archived_error', message: `Environment ${row.environmentId} is archived` };

  for (const id of row.vaultIds) {
    const vault = await found(services.vaults.require(actor, id));
    if (!vault) return { type: 'vault_not_found_error', message: `Vault ${id} no longer exists` };
    if (vault.archivedAt) return { type: 'vault_archived_error', message: `Vault ${id} is archived` };
  }
  for (const resource of row.resources as Array<{ type: string; memory_store_id?: string }>) {
    if (resource.type !== 'memory_store' || !resource.memory_store_id) continue;
    const store = await found(services.memoryStores.require(actor, resource.memory_store_id));
    if (!store)
      return {
        type: 'session_resource_not_found_error',
        message: `Memory store ${resource.memory_store_id} no longer exists`,
      };
    if (store.archivedAt)
      return {
        type: 'memory_store_archived_error',
        message: `Memory store ${resource.memory_store_id} is archived`,
      };
  }
  return null;
}

/** A failure of session creation itself, as a run error. */
export function sessionCreationError(err: unknown): DeploymentError {
  if (err instanceof AppError && err.code !== 'INTERNAL' && err.code !== 'UNAVAILABLE') {
    return { type: 'session_creation_rejected_error', message: err.message };
  }
  return {
    type: 'unknown_error',
    message: err instanceof Error ? err.message : 'Session could not be created',
  };
}

async function found<T extends Lookup>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (err) {
    if (AppError.is(err, 'NOT_FOUND')) return null;
    throw err;
  }
}
