import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Agent, AgentVersion, Prisma, PrismaClient } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export type AgentWithVersion = { agent: Agent; version: AgentVersion };

export type AgentVersionData = Omit<Prisma.AgentVersionUncheckedCreateInput, 'id' | 'agentId' | 'tenantId' | 'version'>;

@Injectable()
export class AgentsRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  async create(actor: Actor, agentId: string, data: AgentVersionData): Promise<AgentWithVersion> {
    return this.db.$transaction(async (tx) => {
      const agent = await tx.agent.create({
        data: {
          id: agentId,
          tenantId: actor.tenantId,
          namespaceId: actor.namespaceId,
          name: data.name,
          description: data.description ?? null,
          headVersion: 1,
          metadata: data.metadata ?? {},
          createdById: actor.userId,
        },
      });
      const version = await tx.agentVersion.create({
        data: { ...data, id: versionRowId(agent.id, 1), tenantId: actor.tenantId, agentId: agent.id, version: 1 },
      });
      return { agent, version };
    });
  }

  /** The agent at `version` (default: its head), or null when it is not in the actor's namespace. */
  async find(actor: Actor, agentId: string, version?: number): Promise<AgentWithVersion | null> {
    const agent = await this.db.agent.findFirst({
      where: { id: agentId, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
    if (!agent) return null;
    const row = await this.db.agentVersion.findUnique({
      where: { agentId_version: { agentId, version: version ?? agent.headVersion } },
    });
    return row ? { agent, version: row } : null;
  }

  async list(actor: Actor, options: { limit: number; afterId?: string; order: 'asc' | 'desc'; includeArchived: boolean }): Promise<AgentWithVersion[]> {
    const agents = await this.db.agent.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(options.includeArchived ? {} : { archivedAt: null }),
        ...(options.afterId ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } } : {}),
      },
      orderBy: { id: options.order },
      take: options.limit,
    });
    if (agents.length === 0) return [];
    const versions = await this.db.agentVersion.findMany({
      where: { OR: agents.map((a) => ({ agentId: a.id, version: a.headVersion })) },
    });
    const byAgent = new Map(versions.map((v) => [v.agentId, v]));
    return agents.flatMap((agent) => {
      const version = byAgent.get(agent.id);
      return version ? [{ agent, version }] : [];
    });
  }

  /**
   * Appends version `expected + 1` and bumps the head in one transaction. The head moves only when it
   * still equals `expected`, so of two concurrent updates from the same version exactly one wins;
   * the loser gets null and nothing is written.
   */
  async appendVersion(actor: Actor, agentId: string, expected: number, data: AgentVersionData): Promise<AgentWithVersion | null> {
    return this.db.$transaction(async (tx) => {
      const bumped = await tx.agent.updateMany({
        where: { id: agentId, tenantId: actor.tenantId, namespaceId: actor.namespaceId, headVersion: expected, archivedAt: null },
        data: { headVersion: { increment: 1 }, name: data.name, description: data.description ?? null, metadata: data.metadata ?? {} },
      });
      if (bumped.count !== 1) return null;
      const next = expected + 1;
      const version = await tx.agentVersion.create({
        data: { ...data, id: versionRowId(agentId, next), tenantId: actor.tenantId, agentId, version: next },
      });
      const agent = await tx.agent.findUniqueOrThrow({ where: { id: agentId } });
      return { agent, version };
    });
  }

  async archive(actor: Actor, agentId: string): Promise<void> {
    await this.db.agent.updateMany({
      where: { id: agentId, tenantId: actor.tenantId, namespaceId: actor.namespaceId, archivedAt: null },
      data: { archivedAt: new Date() },
    });
  }

  async listVersions(agent: Agent, options: { limit: number; afterVersion?: number; order: 'asc' | 'desc' }): Promise<AgentVersion[]> {
    return this.db.agentVersion.findMany({
      where: {
        agentId: agent.id,
        tenantId: agent.tenantId,
        ...(options.afterVersion ? { version: options.order === 'asc' ? { gt: options.afterVersion } : { lt: options.afterVersion } } : {}),
      },
      orderBy: { version: options.order },
      take: options.limit,
    });
  }
}

/** Version rows are addressed by (agent, version); their own id only needs to be unique. */
export function versionRowId(agentId: string, version: number): string {
  return `${agentId}@${version}`;
}
