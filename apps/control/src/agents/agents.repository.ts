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
}

/** Version rows are addressed by (agent, version); their own id only needs to be unique. */
export function versionRowId(agentId: string, version: number): string {
  return `${agentId}@${version}`;
}
