/** What a session runs on and is no longer there: its environment or its agent, archived or deleted. */
export interface LostDependency {
  kind: 'environment' | 'agent';
  id: string;
  state: 'archived' | 'deleted';
}

/** Whether the environment and agent of a session row still stand; null when deleted. */
export interface DependencyFacts {
  environmentId: string;
  agentId: string;
  environmentArchived: boolean | null;
  agentArchived: boolean | null;
}

/**
 * Columns of a `sessions` row query reading the two facts of its environment and agent the dataplane
 * needs as a turn starts. The rows belong to the control service; reading them with the session's own
 * row spares every turn a request to control and a statement of its own.
 */
export const DEPENDENCY_COLUMNS = `environment_id AS "environmentId", agent_id AS "agentId",
  (SELECT e.archived_at IS NOT NULL FROM environments e WHERE e.id = sessions.environment_id) AS "environmentArchived",
  (SELECT a.archived_at IS NOT NULL FROM agents a WHERE a.id = sessions.agent_id) AS "agentArchived"`;

export function lostDependencyOf(facts: DependencyFacts): LostDependency | null {
  if (facts.environmentArchived !== false) {
    return {
      kind: 'environment',
      id: facts.environmentId,
      state: facts.environmentArchived ? 'archived' : 'deleted',
    };
  }
  if (facts.agentArchived !== false)
    return { kind: 'agent', id: facts.agentId, state: facts.agentArchived ? 'archived' : 'deleted' };
  return null;
}
