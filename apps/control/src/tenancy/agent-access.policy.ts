import type { Actor } from '@agentry/contracts';
import type { Agent, AgentShare } from '@agentry/db';

/** How an actor reaches an agent, and whether they may change it. */
export interface AgentGrant {
  via: 'namespace' | 'share';
  /** Update the definition (new versions); writing still needs a non-viewer actor. */
  canEdit: boolean;
}

/**
 * The one rule for reaching an agent: members of its namespace reach it (and, unless viewers, edit it);
 * a user it is shared with reaches it from any namespace they work in, RUN to read it and open
 * sessions on it, EDIT to update it as well. Anyone else does not know it exists.
 */
export function agentGrant(actor: Actor, agent: Agent, share: AgentShare | null): AgentGrant | null {
  if (agent.tenantId !== actor.tenantId) return null;
  if (agent.namespaceId === actor.namespaceId) return { via: 'namespace', canEdit: actor.role !== 'viewer' };
  if (!share || !actor.userId || share.granteeUserId !== actor.userId || share.agentId !== agent.id)
    return null;
  return { via: 'share', canEdit: share.permission === 'edit' && actor.role !== 'viewer' };
}
