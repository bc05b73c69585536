import type { PrismaClient } from '@agentry/db';
import { ID_PREFIXES, newId, normalizeAgentTools, type Actor, type SessionAgent } from '@agentry/contracts';

export interface SelfHostedEnvironment {
  tenantId: string;
  namespaceId: string;
  environmentId: string;
  agentId: string;
}

/** A tenant (or the given one), a namespace, an agent and a `self_hosted` environment, straight to the database. */
export async function seedSelfHostedEnvironment(
  prisma: PrismaClient,
  within?: { tenantId: string; namespaceId: string },
): Promise<SelfHostedEnvironment> {
  const tenantId = within?.tenantId ?? newId(ID_PREFIXES.tenant);
  const namespaceId = within?.namespaceId ?? newId(ID_PREFIXES.namespace);
  if (!within) {
    await prisma.tenant.create({ data: { id: tenantId, name: 't', slug: tenantId.toLowerCase() } });
    await prisma.namespace.create({ data: { id: namespaceId, tenantId, name: 'n', slug: 'n' } });
  }
  const agentId = newId(ID_PREFIXES.agent);
  const environmentId = newId(ID_PREFIXES.environment);
  await prisma.agent.create({ data: { id: agentId, tenantId, namespaceId, name: 'a' } });
  await prisma.agentVersion.create({
    data: { id: `${agentId}@1`, tenantId, agentId, version: 1, name: 'a', model: { id: 'scripted' } },
  });
  await prisma.environment.create({
    data: { id: environmentId, tenantId, namespaceId, name: 'hands', type: 'self_hosted' },
  });
  return { tenantId, namespaceId, environmentId, agentId };
}

/** The pinned agent a session carries: the full toolset and, optionally, a model script. */
export function agentSnapshot(agentId: string, script?: Record<string, unknown>): SessionAgent {
  return {
    type: 'agent',
    id: agentId,
    version: 1,
    name: 'a',
    description: null,
    system: null,
    model: { id: 'scripted', ...(script ? { script } : {}) },
    tools: normalizeAgentTools([{ type: 'agent_toolset_20260401' }]),
    mcp_servers: [],
    skills: [],
    multiagent: null,
    execution_identity: { type: 'service_account' },
  };
}

/** An idle session on the environment, with the frozen spec the control service would have written. */
export async function seedSelfHostedSession(
  prisma: PrismaClient,
  env: SelfHostedEnvironment,
  agent = agentSnapshot(env.agentId),
): Promise<string> {
  return insertSession(prisma, env, 'self_hosted', agent);
}

/**
 * An idle session on a new environment of `type` in the tenant and namespace of `env` (a `local` one sends its
 * file and shell tools to the Hands over NATS), with the frozen spec the control service would have written.
 */
export async function seedSessionOnNewEnvironment(
  prisma: PrismaClient,
  env: SelfHostedEnvironment,
  type: 'local' | 'remote',
  agent = agentSnapshot(env.agentId),
): Promise<string> {
  const environmentId = newId(ID_PREFIXES.environment);
  await prisma.environment.create({
    data: { id: environmentId, tenantId: env.tenantId, namespaceId: env.namespaceId, name: type, type },
  });
  return insertSession(prisma, { ...env, environmentId }, type, agent);
}

async function insertSession(
  prisma: PrismaClient,
  env: SelfHostedEnvironment,
  type: string,
  agent: SessionAgent,
): Promise<string> {
  const sessionId = newId(ID_PREFIXES.session);
  const spec: object = { agent, environment: { id: env.environmentId, type, config: { type } } };
  await prisma.session.create({
    data: {
      id: sessionId,
      tenantId: env.tenantId,
      namespaceId: env.namespaceId,
      agentId: env.agentId,
      agentVersion: 1,
      environmentId: env.environmentId,
      spec,
    },
  });
  return sessionId;
}

/** An admin of the environment's tenant and namespace, calling as the gateway would on a user's behalf. */
export function adminOf(env: { tenantId: string; namespaceId: string }): Actor {
  return {
    tenantId: env.tenantId,
    namespaceId: env.namespaceId,
    userId: null,
    apiKeyId: null,
    role: 'admin',
  };
}
