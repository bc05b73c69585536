import type { Session as SessionRow } from '@agentry/db';
import { toUsageSnapshot, type CallerIdentity, type Session, type SessionAgent } from '@agentry/contracts';
import { toPublicResource } from '../session-resources/session-resource.records.js';

/** The frozen runtime spec a session carries from creation on. */
export interface SessionSpec {
  agent: SessionAgent;
  environment: { id: string; type: string; config: Record<string, unknown> };
}

export function toSessionDto(row: SessionRow): Session {
  const spec = row.spec as unknown as SessionSpec;
  return {
    type: 'session',
    id: row.id,
    agent: spec.agent,
    environment_id: row.environmentId,
    title: row.title,
    status: row.status === 'archived' ? 'idle' : row.status,
    stop_reason: (row.stopReason ?? null) as Session['stop_reason'],
    metadata: row.metadata as Record<string, string>,
    resources: (row.resources as unknown[]).map(toPublicResource),
    vault_ids: row.vaultIds,
    budget: (row.budget ?? null) as Session['budget'],
    usage: toUsageSnapshot(row.usage as Record<string, number>),
    stats: row.stats as Session['stats'],
    outcome_evaluations: toOutcomeEvaluations(row.outcomeEvaluations),
    deployment_id: row.deploymentId,
    created_by: createdBy(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}

/** Who issues Agentry's caller identities: a user is a person of this issuer, an API key a role. */
const CALLER_ISSUER = 'agentry';

/**
 * The creator in the SDK's caller-identity shapes: an API key as a role (its id), a signed-in user as a
 * person (subject: the user's id); null for sessions created before it was recorded, or by the platform.
 */
function createdBy(row: SessionRow): CallerIdentity | null {
  if (row.createdByApiKeyId)
    return {
      type: 'role_actor',
      arn: `${CALLER_ISSUER}:api_key/${row.createdByApiKeyId}`,
      role_id: row.createdByApiKeyId,
    };
  if (row.createdById) return { type: 'person_actor', issuer: CALLER_ISSUER, subject: row.createdById };
  return null;
}

/** The API's view of `sessions.outcome_evaluations`: the grader's own fields (rubric, budget) stay inside. */
function toOutcomeEvaluations(stored: unknown): Session['outcome_evaluations'] {
  if (!Array.isArray(stored)) return [];
  return (stored as Array<Omit<Session['outcome_evaluations'][number], 'type'>>).map((e) => ({
    type: 'outcome_evaluation',
    outcome_id: e.outcome_id,
    description: e.description,
    iteration: e.iteration,
    result: e.result,
    explanation: e.explanation ?? null,
    completed_at: e.completed_at ?? null,
  }));
}
