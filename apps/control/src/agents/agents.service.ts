import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type Agent,
  type CreateAgentRequest,
  type ListParams,
  type Page,
  type UpdateAgentRequest,
} from '@agentry/contracts';
import type { Agent as AgentRow } from '@agentry/db';
import { decodeCursor, decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { resumableById } from '../common/page-cursor.js';
import { resumableAfter } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { toAgentDto } from './agent.mapper.js';
import { applyAgentPatch, isSameDefinition, toVersionData } from './agent-patch.js';
import { AgentsRepository, type AgentWithVersion } from './agents.repository.js';
import { AgentSharesService } from '../tenancy/agent-shares.service.js';
import { agentGrant } from '../tenancy/agent-access.policy.js';
import { ModelCatalog } from './model-catalog.js';

/** Unconditional updates (no `version`) retry this often when a concurrent update moves the head. */
const UNCONDITIONAL_ATTEMPTS = 3;

@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly shares: AgentSharesService,
    private readonly audit: AuditLogService,
    private readonly models: ModelCatalog,
  ) {}

  async create(actor: Actor, body: CreateAgentRequest): Promise<Agent> {
    assertCanWrite(actor);
    this.models.assertServable(body.model);
    const row = await this.agents.create(actor, newId(ID_PREFIXES.agent), toVersionData(body));
    await this.audit.record(actor, { action: 'create', resourceType: 'agent', resourceId: row.agent.id });
    return toAgentDto(row);
  }

  /** One statement: the agent, the version asked for and the caller's share, judged by the same policy as `reach`. */
  async get(actor: Actor, id: string, version?: number): Promise<Agent> {
    const read = await this.agents.read(actor.tenantId, id, version, actor.userId ?? undefined);
    if (!read || !agentGrant(actor, read.agent, read.share))
      throw new AppError('NOT_FOUND', `Agent ${id} not found`);
    if (!read.version) throw new AppError('NOT_FOUND', `Agent ${id} has no version ${version}`);
    return toAgentDto({ agent: read.agent, version: read.version });
  }

  /** The agent (at `version`, default its head) if the actor reaches it: in its namespace or shared with them. */
  async require(actor: Actor, id: string, version?: number): Promise<AgentWithVersion> {
    return this.withVersion(await this.reach(actor, id, 'read'), version);
  }

  /**
   * A new version per effective change; a stale `version` is a VERSION_CONFLICT decided by the database.
   * Members of the agent's namespace and users holding an EDIT share may update it.
   */
  async update(actor: Actor, id: string, body: UpdateAgentRequest): Promise<Agent> {
    assertCanWrite(actor);
    if (body.model) this.models.assertServable(body.model);
    for (let attempt = 1; ; attempt++) {
      const current = await this.withVersion(await this.reach(actor, id, 'edit'));
      if (current.agent.archivedAt)
        throw new AppError('INVALID_REQUEST', `Agent ${id} is archived and can no longer be updated`);
      const expected = body.version ?? current.agent.headVersion;
      if (expected !== current.agent.headVersion)
        throw versionConflict(id, expected, current.agent.headVersion);
      const next = applyAgentPatch(current.version, body);
      if (isSameDefinition(current.version, next)) return toAgentDto(current);
      const row = await this.agents.appendVersion(current.agent, expected, next);
      if (row) {
        await this.audit.record(actor, {
          action: 'update',
          resourceType: 'agent',
          resourceId: id,
          details: { version: row.version.version },
        });
        return toAgentDto(row);
      }
      if (body.version !== undefined || attempt >= UNCONDITIONAL_ATTEMPTS)
        throw versionConflict(id, expected, expected + 1);
    }
  }

  /** Only members of the agent's namespace archive it; a share never does. */
  async archive(actor: Actor, id: string): Promise<Agent> {
    assertCanWrite(actor);
    const agent = await this.reach(actor, id, 'own');
    await this.agents.archive(agent);
    await this.audit.record(actor, { action: 'archive', resourceType: 'agent', resourceId: id });
    return toAgentDto(await this.require(actor, id));
  }

  async list(actor: Actor, query: ListParams): Promise<Page<Agent>> {
    const rows = await this.agents.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return resumableById({
      data: page.map(toAgentDto),
      next_page: rows.length > query.limit && last ? encodeCursor(last.agent.id) : null,
    });
  }

  /** Every version of an agent, newest first by default; the cursor is the version number at the page edge. */
  async listVersions(actor: Actor, id: string, query: ListParams): Promise<Page<Agent>> {
    const { agent } = await this.require(actor, id);
    const after = query.page ? Number(decodeCursor(query.page)) : undefined;
    if (after !== undefined && !(Number.isInteger(after) && after > 0)) {
      throw new AppError('INVALID_REQUEST', 'page: not a cursor this API returned');
    }
    const rows = await this.agents.listVersions(agent, {
      limit: query.limit + 1,
      afterVersion: after,
      order: query.order ?? 'desc',
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return resumableAfter(
      {
        data: page.map((version) => toAgentDto({ agent, version })),
        next_page: rows.length > query.limit && last ? encodeCursor(String(last.version)) : null,
      },
      (item) => encodeCursor(String(item.version)),
    );
  }

  private async withVersion(agent: AgentRow, version?: number): Promise<AgentWithVersion> {
    const row = await this.agents.findVersion(agent, version ?? agent.headVersion);
    if (!row) throw new AppError('NOT_FOUND', `Agent ${agent.id} has no version ${version}`);
    return { agent, version: row };
  }

  /** Asks the share policy (the one place that decides) whether the actor reaches the agent for `need`. */
  private async reach(actor: Actor, id: string, need: Need): Promise<AgentRow> {
    const reached = await this.shares.reach(actor, id);
    if (!reached) throw new AppError('NOT_FOUND', `Agent ${id} not found`);
    const { grant } = reached;
    if (need === 'edit' && !grant.canEdit) {
      throw new AppError(
        'PERMISSION_DENIED',
        grant.via === 'share'
          ? `Agent ${id} is shared with you to run only; updating it needs an EDIT share`
          : 'This key or user may only read',
      );
    }
    if (need === 'own' && grant.via !== 'namespace') {
      throw new AppError(
        'PERMISSION_DENIED',
        `Agent ${id} is shared with you; only members of its own namespace may archive it`,
      );
    }
    return reached.agent;
  }
}

type Need = 'read' | 'edit' | 'own';

function versionConflict(id: string, expected: number, head: number): AppError {
  return new AppError(
    'VERSION_CONFLICT',
    `version: agent ${id} is at version ${head}, but the update was based on version ${expected}; retrieve it and retry`,
    { details: { current_version: head } },
  );
}
