import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { Agent, AgentShare, AgentVersion, Prisma, ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';
import { ControlSql } from '../common/control-sql.js';
import {
  AGENT_WITH_VERSION_SQL,
  agentOf,
  shareOf,
  versionOf,
  type AgentWithVersionRow,
} from './agent-reads.sql.js';

export type AgentWithVersion = { agent: Agent; version: AgentVersion };

/** An agent as one read sees it: the version asked for (null if it has none) and the caller's share. */
export type AgentReading = { agent: Agent; version: AgentVersion | null; share: AgentShare | null };

export type AgentVersionData = Omit<
  Prisma.AgentVersionUncheckedCreateInput,
  'id' | 'agentId' | 'tenantId' | 'version'
>;

@Injectable()
export class AgentsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    private readonly sql: ControlSql,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The agent, its version (`version`, default the head) and the share `userId` holds, in one statement. */
  async read(
    tenantId: string,
    agentId: string,
    version: number | undefined,
    userId: string | undefined,
  ): Promise<AgentReading | null> {
    const [row] = await this.sql.rows<AgentWithVersionRow>('agent_with_version', AGENT_WITH_VERSION_SQL, [
      agentId,
      tenantId,
      version ?? null,
      userId ?? null,
    ]);
    if (!row) return null;
    return {
      agent: agentOf(row),
      version: row.version ? versionOf(row.version) : null,
      share: row.share ? shareOf(row.share) : null,
    };
  }

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
        data: {
          ...data,
          id: versionRowId(agent.id, 1),
          tenantId: actor.tenantId,
          agentId: agent.id,
          version: 1,
        },
      });
      return { agent, version };
    });
  }

  /** One version of an agent the caller already reached (see `AgentSharesService.reach`). */
  findVersion(agent: Agent, version: number): Promise<AgentVersion | null> {
    return this.db.agentVersion.findUnique({ where: { agentId_version: { agentId: agent.id, version } } });
  }

  async list(
    actor: Actor,
    options: { limit: number; afterId?: string; order: 'asc' | 'desc'; includeArchived: boolean },
  ): Promise<AgentWithVersion[]> {
    const agents = await this.db.agent.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(options.includeArchived ? {} : { archivedAt: null }),
        ...(options.afterId
          ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
          : {}),
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
  async appendVersion(
    agent: Agent,
    expected: number,
    data: AgentVersionData,
  ): Promise<AgentWithVersion | null> {
    const { id: agentId, tenantId } = agent;
    return this.db.$transaction(async (tx) => {
      const bumped = await tx.agent.updateMany({
        where: {
          id: agentId,
          tenantId,
          namespaceId: agent.namespaceId,
          headVersion: expected,
          archivedAt: null,
        },
        data: {
          headVersion: { increment: 1 },
          name: data.name,
          description: data.description ?? null,
          metadata: data.metadata ?? {},
        },
      });
      if (bumped.count !== 1) return null;
      const next = expected + 1;
      const version = await tx.agentVersion.create({
        data: { ...data, id: versionRowId(agentId, next), tenantId, agentId, version: next },
      });
      return { agent: await tx.agent.findUniqueOrThrow({ where: { id: agentId } }), version };
    });
  }

  async archive(agent: Agent): Promise<void> {
    await this.db.agent.updateMany({
      where: { id: agent.id, tenantId: agent.tenantId, namespaceId: agent.namespaceId, archivedAt: null },
      data: { archivedAt: this.clock.now() },
    });
  }

  async listVersions(
    agent: Agent,
    options: { limit: number; afterVersion?: number; order: 'asc' | 'desc' },
  ): Promise<AgentVersion[]> {
    return this.db.agentVersion.findMany({
      where: {
        agentId: agent.id,
        tenantId: agent.tenantId,
        ...(options.afterVersion
          ? { version: options.order === 'asc' ? { gt: options.afterVersion } : { lt: options.afterVersion } }
          : {}),
      },
      orderBy: { version: options.order },
      take: options.limit,
    });
  }
}

/** Version rows are addressed by (agent, version); their own id only needs to be unique. */
function versionRowId(agentId: string, version: number): string {
  return `${agentId}@${version}`;
}
