import { Injectable } from '@nestjs/common';
import {
  AppError,
  newId,
  type Actor,
  type AgentShare,
  type AgentSharePermission,
  type ShareAgentRequest,
} from '@agentry/contracts';
import type { Agent, AgentShare as AgentShareRow } from '@agentry/db';
import { AuditLogService } from '../audit/audit-log.service.js';
import { assertCanWrite } from '../common/access.js';
import { agentGrant, type AgentGrant } from './agent-access.policy.js';
import { AgentSharesRepository } from './agent-shares.repository.js';

export interface AgentAccess {
  allowed: boolean;
  via: 'namespace' | 'share' | 'none';
}

/** An agent the actor reaches, and how. */
export interface ReachedAgent {
  agent: Agent;
  grant: AgentGrant;
}

/**
 * RUN / EDIT grants on one agent to users outside its namespace (the seed's shares). `reach` is where
 * every agent read, update and session start asks whether the caller may see the agent at all.
 */
@Injectable()
export class AgentSharesService {
  constructor(
    private readonly shares: AgentSharesRepository,
    private readonly audit: AuditLogService,
  ) {}

  async share(actor: Actor, agentId: string, body: ShareAgentRequest): Promise<AgentShare> {
    await this.requireOwnAgent(actor, agentId);
    assertCanWrite(actor);
    if (!(await this.shares.userExists(actor.tenantId, body.granteeId))) {
      throw new AppError('NOT_FOUND', `granteeId: user ${body.granteeId} not found`);
    }
    const row = await this.shares.upsert({
      id: newId('share_'),
      tenantId: actor.tenantId,
      agentId,
      granteeUserId: body.granteeId,
      permission: body.tier.toLowerCase(),
    });
    await this.audit.record(actor, {
      action: 'share',
      resourceType: 'agent',
      resourceId: agentId,
      details: { granteeId: body.granteeId, tier: body.tier },
    });
    return toAgentShare(row);
  }

  async unshare(actor: Actor, agentId: string, granteeId: string): Promise<{ deleted: boolean }> {
    await this.requireOwnAgent(actor, agentId);
    assertCanWrite(actor);
    const deleted = await this.shares.delete(actor.tenantId, agentId, granteeId);
    if (deleted)
      await this.audit.record(actor, {
        action: 'unshare',
        resourceType: 'agent',
        resourceId: agentId,
        details: { granteeId },
      });
    return { deleted };
  }

  async list(actor: Actor, agentId: string): Promise<{ data: AgentShare[] }> {
    await this.requireOwnAgent(actor, agentId);
    return { data: (await this.shares.list(actor.tenantId, agentId)).map(toAgentShare) };
  }

  /** May this actor run (or edit) the agent? Derived from `reach`, so the answer never differs from it. */
  async check(actor: Actor, agentId: string, permission: AgentSharePermission): Promise<AgentAccess> {
    const reached = await this.reach(actor, agentId);
    const allowed = reached !== null && (permission === 'run' || reached.grant.canEdit);
    return { allowed, via: allowed && reached ? reached.grant.via : 'none' };
  }

  /** The agent if the actor reaches it (see `agentGrant`), else null. Shares are read on every call. */
  async reach(actor: Actor, agentId: string): Promise<ReachedAgent | null> {
    const agent = await this.shares.findAgent(actor.tenantId, agentId);
    if (!agent) return null;
    const share =
      agent.namespaceId !== actor.namespaceId && actor.userId
        ? await this.shares.find(actor.tenantId, agentId, actor.userId)
        : null;
    const grant = agentGrant(actor, agent, share);
    return grant ? { agent, grant } : null;
  }

  /** Shares are managed from the agent's own namespace only; grantees cannot pass them on. */
  private async requireOwnAgent(actor: Actor, agentId: string): Promise<Agent> {
    const reached = await this.reach(actor, agentId);
    if (reached?.grant.via !== 'namespace') throw new AppError('NOT_FOUND', `Agent ${agentId} not found`);
    return reached.agent;
  }
}

function toAgentShare(row: AgentShareRow): AgentShare {
  return {
    agentId: row.agentId,
    granteeType: 'user',
    granteeId: row.granteeUserId,
    tier: row.permission === 'edit' ? 'EDIT' : 'RUN',
    createdAt: row.createdAt.toISOString(),
  };
}
