import { Injectable } from '@nestjs/common';
import {
  AppError,
  newIdBody,
  type Actor,
  type AgentShare,
  type AgentSharePermission,
  type ShareAgentRequest,
} from '@agentry/contracts';
import type { Agent, AgentShare as AgentShareRow } from '@agentry/db';
import { AuditLogService } from '../audit/audit-log.service.js';
import { assertCanWrite } from '../common/access.js';
import { AgentSharesRepository } from './agent-shares.repository.js';

export interface AgentAccess {
  allowed: boolean;
  via: 'namespace' | 'share' | 'none';
}

/**
 * RUN / EDIT grants on one agent to users outside its namespace's normal rights (the seed's shares).
 * `check` is the helper other services ask before running or editing an agent they were handed.
 */
@Injectable()
export class AgentSharesService {
  constructor(
    private readonly shares: AgentSharesRepository,
    private readonly audit: AuditLogService,
  ) {}

  async share(actor: Actor, agentId: string, body: ShareAgentRequest): Promise<AgentShare> {
    await this.requireOwnAgent(actor, agentId);
    if (!(await this.shares.userExists(actor.tenantId, body.granteeId))) {
      throw new AppError('NOT_FOUND', `granteeId: user ${body.granteeId} not found`);
    }
    const row = await this.shares.upsert({
      id: `share_${newIdBody()}`,
      tenantId: actor.tenantId,
      agentId,
      granteeUserId: body.granteeId,
      permission: body.tier.toLowerCase(),
    });
    await this.audit.record(actor, { action: 'share', resourceType: 'agent', resourceId: agentId, details: { granteeId: body.granteeId, tier: body.tier } });
    return toAgentShare(row);
  }

  async unshare(actor: Actor, agentId: string, granteeId: string): Promise<{ deleted: boolean }> {
    await this.requireOwnAgent(actor, agentId);
    const deleted = await this.shares.delete(actor.tenantId, agentId, granteeId);
    if (deleted) await this.audit.record(actor, { action: 'unshare', resourceType: 'agent', resourceId: agentId, details: { granteeId } });
    return { deleted };
  }

  async list(actor: Actor, agentId: string): Promise<{ data: AgentShare[] }> {
    const agent = await this.shares.findAgent(actor.tenantId, agentId);
    if (!agent || agent.namespaceId !== actor.namespaceId) throw new AppError('NOT_FOUND', `Agent ${agentId} not found`);
    return { data: (await this.shares.list(actor.tenantId, agentId)).map(toAgentShare) };
  }

  /** Namespace members run (and, unless viewers, edit) its agents; anyone else needs a share. */
  async check(actor: Actor, agentId: string, permission: AgentSharePermission): Promise<AgentAccess> {
    const agent = await this.shares.findAgent(actor.tenantId, agentId);
    if (!agent) return { allowed: false, via: 'none' };
    if (agent.namespaceId === actor.namespaceId && (permission === 'run' || actor.role !== 'viewer')) {
      return { allowed: true, via: 'namespace' };
    }
    if (!actor.userId || actor.role === 'viewer') return { allowed: false, via: 'none' };
    const share = await this.shares.find(actor.tenantId, agentId, actor.userId);
    const allowed = share !== null && (permission === 'run' || share.permission === 'edit');
    return { allowed, via: allowed ? 'share' : 'none' };
  }

  private async requireOwnAgent(actor: Actor, agentId: string): Promise<Agent> {
    const agent = await this.shares.findAgent(actor.tenantId, agentId);
    if (!agent || agent.namespaceId !== actor.namespaceId) throw new AppError('NOT_FOUND', `Agent ${agentId} not found`);
    assertCanWrite(actor);
    return agent;
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
