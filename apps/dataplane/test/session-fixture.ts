import type { PrismaClient } from '@agentry/db';
import { ID_PREFIXES, newId } from '@agentry/contracts';

export interface SessionFixture {
  tenantId: string;
  namespaceId: string;
  sessionId: string;
}

/** A tenant, namespace, agent, environment and idle session, written straight to the test database. */
export async function seedSession(prisma: PrismaClient): Promise<SessionFixture> {
  const tenantId = newId(ID_PREFIXES.tenant);
  const namespaceId = newId(ID_PREFIXES.namespace);
  const agentId = newId(ID_PREFIXES.agent);
  const environmentId = newId(ID_PREFIXES.environment);
  const sessionId = newId(ID_PREFIXES.session);
  await prisma.tenant.create({ data: { id: tenantId, name: 't', slug: tenantId.toLowerCase() } });
  await prisma.namespace.create({ data: { id: namespaceId, tenantId, name: 'n', slug: 'n' } });
  await prisma.agent.create({ data: { id: agentId, tenantId, namespaceId, name: 'a' } });
  await prisma.agentVersion.create({
    data: { id: `${agentId}@1`, tenantId, agentId, version: 1, name: 'a', model: { id: 'scripted' } },
  });
  await prisma.environment.create({
    data: { id: environmentId, tenantId, namespaceId, name: 'e', type: 'local' },
  });
  await prisma.session.create({
    data: { id: sessionId, tenantId, namespaceId, agentId, agentVersion: 1, environmentId },
  });
  return { tenantId, namespaceId, sessionId };
}
