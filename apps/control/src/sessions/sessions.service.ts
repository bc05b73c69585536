import { Injectable } from '@nestjs/common';
import {
  AppError,
  CheckpointSubjects,
  DataplaneSubjects,
  HandsSubjects,
  ID_PREFIXES,
  LIMITS,
  applyMetadataPatch,
  newId,
  normalizeAgentTools,
  toModelConfig,
  type Actor,
  type BudgetLimit,
  type CreateSessionRequest,
  type ForkSessionRequest,
  type HandsSessionEnded,
  type ListSessionsParams,
  type Page,
  type Session,
  type SessionAgent,
  type SessionDeleted,
  type SessionRowChanges,
  type UpdateSessionRequest,
} from '@agentry/contracts';
import type { Session as SessionRow } from '@agentry/db';
import { NatsBus, RpcClient } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { toAgentSnapshot } from '../agents/agent.mapper.js';
import { AgentsService } from '../agents/agents.service.js';
import { ModelCatalog } from '../agents/model-catalog.js';
import { EnvironmentsService } from '../environments/environments.service.js';
import { SessionResourcesService } from '../session-resources/session-resources.service.js';
import { assertBudgetChange } from './session-budget.rules.js';
import { toSessionDto, type SessionSpec } from './session.mapper.js';
import { listSessionsPage } from './session-list.query.js';
import { BUSY_STATUSES, SessionsRepository } from './sessions.repository.js';
import { VaultsService } from '../vaults/vaults.service.js';

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly agents: AgentsService,
    private readonly environments: EnvironmentsService,
    private readonly rpc: RpcClient,
    private readonly audit: AuditLogService,
    private readonly models: ModelCatalog,
    private readonly resources: SessionResourcesService,
    private readonly bus: NatsBus,
    private readonly vaults: VaultsService,
  ) {}

  /** `link.deploymentId` ties the session to the deployment run that created it. */
  async create(
    actor: Actor,
    body: CreateSessionRequest,
    link: { deploymentId?: string } = {},
  ): Promise<Session> {
    assertCanWrite(actor);
    const agent = await this.resolveAgent(actor, body.agent);
    const environment = await this.environments.require(actor, body.environment_id);
    if (environment.archivedAt)
      throw new AppError('INVALID_REQUEST', `environment_id: environment ${environment.id} is archived`);
    await this.vaults.assertAttachable(actor, body.vault_ids ?? []);
    const resources = await this.resources.prepare(actor, body.resources ?? []);
    const spec: SessionSpec = {
      agent,
      environment: {
        id: environment.id,
        type: environment.type,
        config: environment.config as Record<string, unknown>,
      },
    };
    const id = await this.sessions.create(actor, {
      id: newId(ID_PREFIXES.session),
      agentId: agent.id,
      agentVersion: agent.version,
      environmentId: environment.id,
      title: body.title ?? null,
      metadata: body.metadata ?? {},
      spec: spec as unknown as Record<string, unknown>,
      resources: resources.map((r) => r.record),
      vaultIds: body.vault_ids ?? [],
      budget: (body.budget as Record<string, unknown> | undefined) ?? null,
      deploymentId: link.deploymentId ?? null,
    });
    await this.resources.sealTokens(actor.tenantId, id, resources);
    if (body.initial_events?.length) {
      await this.rpc.request(DataplaneSubjects.appendEvents, {
        actor,
        sessionId: id,
        events: body.initial_events,
      });
    }
    await this.audit.record(actor, {
      action: 'create',
      resourceType: 'session',
      resourceId: id,
      details: { agentId: agent.id },
    });
    return toSessionDto(await this.require(actor, id));
  }

  /** A new session from a checkpoint of session `id`, with its agent or the one `body.agent` names. */
  async fork(actor: Actor, id: string, body: ForkSessionRequest): Promise<Session> {
    assertCanWrite(actor);
    const source = await this.require(actor, id);
    const spec = source.spec as unknown as SessionSpec;
    const agent = body.agent ? await this.resolveAgent(actor, body.agent) : spec.agent;
    const fork = await this.rpc.request(CheckpointSubjects.fork, {
      actor,
      id,
      ...(body.checkpoint ? { checkpointId: body.checkpoint } : {}),
      ...(body.event_id ? { eventId: body.event_id } : {}),
      target: {
        id: newId(ID_PREFIXES.session),
        agentId: agent.id,
        agentVersion: agent.version,
        spec: { ...spec, agent },
      },
    });
    await this.audit.record(actor, {
      action: 'create',
      resourceType: 'session',
      resourceId: fork.id,
      details: { agentId: agent.id, forkedFrom: id },
    });
    return toSessionDto(await this.require(actor, fork.id));
  }

  async get(actor: Actor, id: string): Promise<Session> {
    return toSessionDto(await this.require(actor, id));
  }

  list(actor: Actor, query: ListSessionsParams): Promise<Page<Session>> {
    return listSessionsPage(this.sessions, actor, query);
  }

  /** Title, metadata patch, budget, vaults and the tool lists of the pinned agent; status stays the dataplane's. */
  async update(actor: Actor, id: string, body: UpdateSessionRequest): Promise<Session> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt)
      throw new AppError('INVALID_REQUEST', `Session ${id} is archived and can no longer be updated`);
    const changes: SessionRowChanges = {};
    if (body.title !== undefined) changes.title = body.title || null;
    if (body.metadata !== undefined) {
      const metadata = applyMetadataPatch(row.metadata as Record<string, string>, body.metadata);
      if (Object.keys(metadata).length > LIMITS.metadataKeys) {
        throw new AppError(
          'INVALID_REQUEST',
          `metadata: would hold more than ${LIMITS.metadataKeys} keys after the patch`,
        );
      }
      changes.metadata = metadata;
    }
    if (body.budget !== undefined) {
      const spent = (row.usage as { list_cost_micros?: number }).list_cost_micros ?? 0;
      assertBudgetChange(id, row.budget as BudgetLimit | null, body.budget, spent);
      changes.budget = body.budget ?? null;
    }
    if (body.vault_ids !== undefined) {
      await this.vaults.assertAttachable(actor, body.vault_ids);
      changes.vaultIds = body.vault_ids;
    }
    if (body.agent?.tools !== undefined || body.agent?.mcp_servers !== undefined) {
      const spec = row.spec as unknown as SessionSpec;
      const agent: SessionAgent = {
        ...spec.agent,
        ...(body.agent.tools !== undefined ? { tools: normalizeAgentTools(body.agent.tools) } : {}),
        ...(body.agent.mcp_servers !== undefined ? { mcp_servers: body.agent.mcp_servers } : {}),
      };
      changes.spec = { ...spec, agent };
    }
    if (Object.keys(changes).length > 0) {
      await this.sessions.update(actor, id, changes);
      await this.audit.record(actor, {
        action: 'update',
        resourceType: 'session',
        resourceId: id,
        details: { fields: Object.keys(changes) },
      });
    }
    return this.get(actor, id);
  }

  async archive(actor: Actor, id: string): Promise<Session> {
    assertCanWrite(actor);
    const archived = await this.sessions.archive(actor, id);
    const row = await this.require(actor, id);
    if (!archived && !row.archivedAt) throw busy(row, 'archived');
    if (archived)
      await this.audit.record(actor, { action: 'archive', resourceType: 'session', resourceId: id });
    return toSessionDto(row);
  }

  async restore(actor: Actor, id: string): Promise<Session> {
    assertCanWrite(actor);
    const restored = await this.sessions.restore(actor, id);
    const row = await this.require(actor, id);
    if (restored)
      await this.audit.record(actor, { action: 'restore', resourceType: 'session', resourceId: id });
    return toSessionDto(row);
  }

  async delete(actor: Actor, id: string): Promise<SessionDeleted> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (!(await this.sessions.delete(actor, id))) {
      const now = (await this.sessions.find(actor, id)) ?? row;
      if (BUSY_STATUSES.includes(now.status)) throw busy(now, 'deleted');
      throw new AppError(
        'CONFLICT',
        `Session ${id} has input waiting for a turn and cannot be deleted; wait until it is idle`,
      );
    }
    await this.audit.record(actor, { action: 'delete', resourceType: 'session', resourceId: id });
    // The workers drop what they keep for the session outside the database (an E2B sandbox is killed).
    const ended: HandsSessionEnded = { v: 1, tenantId: row.tenantId, sessionId: id };
    this.bus.publish(HandsSubjects.sessionEnded, ended);
    return { id, type: 'session_deleted' };
  }

  private async require(actor: Actor, id: string): Promise<SessionRow> {
    const row = await this.sessions.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Session ${id} not found`);
    return row;
  }

  /** Pins the agent version the session will run, applying per-session overrides. */
  private async resolveAgent(actor: Actor, ref: CreateSessionRequest['agent']): Promise<SessionAgent> {
    if (typeof ref === 'string') return toAgentSnapshot(await this.agents.require(actor, ref));
    const snapshot = toAgentSnapshot(await this.agents.require(actor, ref.id, ref.version));
    if (ref.type === 'agent') return snapshot;
    if (ref.model !== undefined) this.models.assertServable(ref.model);
    return {
      ...snapshot,
      ...(ref.model !== undefined ? { model: toModelConfig(ref.model) } : {}),
      ...(ref.system !== undefined ? { system: ref.system } : {}),
      ...(ref.tools !== undefined ? { tools: normalizeAgentTools(ref.tools) } : {}),
      ...(ref.mcp_servers !== undefined ? { mcp_servers: ref.mcp_servers } : {}),
    };
  }
}

function busy(row: SessionRow, verb: string): AppError {
  return new AppError(
    'CONFLICT',
    `Session ${row.id} is ${row.status} and cannot be ${verb}; interrupt it and wait until it is idle`,
  );
}
