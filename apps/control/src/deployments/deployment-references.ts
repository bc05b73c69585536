import {
  AppError,
  type Actor,
  type CreateDeploymentRequest,
  type UpdateDeploymentRequest,
} from '@agentry/contracts';
import type { AgentsService } from '../agents/agents.service.js';
import type { EnvironmentsService } from '../environments/environments.service.js';
import type { MemoryStoresService } from '../memory-stores/memory-stores.service.js';
import type { VaultsService } from '../vaults/vaults.service.js';

export interface ReferenceServices {
  agents: AgentsService;
  environments: EnvironmentsService;
  vaults: VaultsService;
  memoryStores: MemoryStoresService;
}

type References = Pick<UpdateDeploymentRequest, 'agent' | 'environment_id' | 'vault_ids' | 'resources'>;

/** The agent as a deployment stores it: an id, and a version only when pinned. */
export function agentReference(agent: CreateDeploymentRequest['agent']): {
  agentId: string;
  agentVersion: number | null;
} {
  return typeof agent === 'string'
    ? { agentId: agent, agentVersion: null }
    : { agentId: agent.id, agentVersion: agent.version ?? null };
}

/**
 * Checks that everything a deployment names exists in the actor's namespace now, so a bad id fails at
 * definition time instead of at 3 a.m. on the first fire.
 */
export async function assertReferencesExist(
  actor: Actor,
  refs: References,
  services: ReferenceServices,
): Promise<void> {
  if (refs.agent !== undefined) {
    const { agentId, agentVersion } = agentReference(refs.agent);
    await asField('agent', services.agents.require(actor, agentId, agentVersion ?? undefined));
  }
  if (refs.environment_id !== undefined)
    await asField('environment_id', services.environments.require(actor, refs.environment_id));
  await services.vaults.assertAttachable(actor, refs.vault_ids ?? []);
  for (const [i, resource] of (refs.resources ?? []).entries()) {
    if (resource.type === 'memory_store')
      await asField(`resources.${i}`, services.memoryStores.require(actor, resource.memory_store_id));
    // Tokens would have to be stored for every future run; they belong in a vault credential instead.
    if (resource.type === 'github_repository' && resource.authorization_token) {
      throw new AppError(
        'INVALID_REQUEST',
        `resources.${i}.authorization_token: not stored on deployments; attach a vault instead`,
      );
    }
  }
}

/** A reference the caller cannot see is a 404 like any other (DESIGN §4), naming the field it came from. */
async function asField<T>(field: string, lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (err) {
    if (AppError.is(err, 'NOT_FOUND'))
      throw new AppError('NOT_FOUND', `${field}: ${err.message}`, { cause: err });
    throw err;
  }
}
