import { Injectable } from '@nestjs/common';
import {
  AppError,
  DataplaneSubjects,
  ID_PREFIXES,
  newId,
  normalizeAgentTools,
  toModelConfig,
  type Actor,
  type CreateSessionRequest,
  type Session,
  type SessionAgent,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { toAgentSnapshot } from '../agents/agent.mapper.js';
import { AgentsService } from '../agents/agents.service.js';
import { EnvironmentsService } from '../environments/environments.service.js';
import { toSessionDto, type SessionSpec } from './session.mapper.js';
import { SessionsRepository } from './sessions.repository.js';

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly agents: AgentsService,
    private readonly environments: EnvironmentsService,
    private readonly rpc: RpcClient,
  ) {}

  async create(actor: Actor, body: CreateSessionRequest): Promise<Session> {
    assertCanWrite(actor);
    const agent = await this.resolveAgent(actor, body.agent);
    const environment = await this.environments.require(actor, body.environment_id);
    if (environment.archivedAt) throw new AppError('INVALID_REQUEST', `environment_id: environment ${environment.id} is archived`);
    const spec: SessionSpec = {
      agent,
      environment: { id: environment.id, type: environment.type, config: environment.config as Record<string, unknown> },
    };
    const row = await this.sessions.create(actor, {
      id: newId(ID_PREFIXES.session),
      agentId: agent.id,
      agentVersion: agent.version,
      environmentId: environment.id,
      title: body.title ?? null,
      metadata: body.metadata ?? {},
      spec: spec as unknown as Record<string, unknown>,
      resources: body.resources ?? [],
      vaultIds: body.vault_ids ?? [],
      budget: body.budget ?? null,
    });
    if (body.initial_events?.length) {
      await this.rpc.request(DataplaneSubjects.appendEvents, { actor, sessionId: row.id, events: body.initial_events });
    }
    return toSessionDto((await this.sessions.find(actor, row.id)) ?? row);
  }

  async get(actor: Actor, id: string): Promise<Session> {
    const row = await this.sessions.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Session ${id} not found`);
    return toSessionDto(row);
  }

  /** Pins the agent version the session will run, applying per-session overrides. */
  private async resolveAgent(actor: Actor, ref: CreateSessionRequest['agent']): Promise<SessionAgent> {
    if (typeof ref === 'string') return toAgentSnapshot(await this.agents.require(actor, ref));
    const snapshot = toAgentSnapshot(await this.agents.require(actor, ref.id, ref.version));
    if (ref.type === 'agent') return snapshot;
    return {
      ...snapshot,
      ...(ref.model !== undefined ? { model: toModelConfig(ref.model) } : {}),
      ...(ref.system !== undefined ? { system: ref.system } : {}),
      ...(ref.tools !== undefined ? { tools: normalizeAgentTools(ref.tools) } : {}),
      ...(ref.mcp_servers !== undefined ? { mcp_servers: ref.mcp_servers } : {}),
    };
  }
}
