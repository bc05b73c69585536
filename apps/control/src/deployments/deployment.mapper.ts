import type { Deployment as DeploymentRow, DeploymentRun as RunRow } from '@agentry/db';
import type { Deployment, DeploymentRun, Metadata } from '@agentry/contracts';
import { upcomingRuns } from './cron-occurrences.js';

/**
 * `agentVersion` is the pinned version, else the agent's current head (what the next run would use); `now`
 * is the moment the upcoming fire times are counted from (none once archived, as in CMA).
 */
export function toDeploymentDto(row: DeploymentRow, agentVersion: number, now: Date): Deployment {
  const schedule = row.schedule as { type: 'cron'; expression: string; timezone: string } | null;
  return {
    type: 'deployment',
    id: row.id,
    name: row.name,
    description: row.description,
    agent: { type: 'agent', id: row.agentId, version: agentVersion },
    environment_id: row.environmentId,
    initial_events: row.initialEvents as Deployment['initial_events'],
    resources: row.resources as Deployment['resources'],
    vault_ids: row.vaultIds,
    budget: (row.budget ?? null) as Deployment['budget'],
    schedule: schedule
      ? {
          ...schedule,
          last_run_at: row.lastRunAt?.toISOString() ?? null,
          upcoming_runs_at: row.archivedAt ? [] : upcomingRuns(schedule, now),
        }
      : null,
    status: row.pausedAt ? 'paused' : 'active',
    paused_reason: row.pausedAt
      ? ((row.pausedReason ?? { type: 'manual' }) as Deployment['paused_reason'])
      : null,
    metadata: row.metadata as Metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
    webhook_enabled: row.webhookTokenHash !== null,
  };
}

export function toDeploymentRunDto(row: RunRow, agentVersion: number, agentId: string): DeploymentRun {
  return {
    type: 'deployment_run',
    id: row.id,
    deployment_id: row.deploymentId,
    agent: { type: 'agent', id: agentId, version: agentVersion },
    session_id: row.sessionId,
    error: (row.error ?? null) as DeploymentRun['error'],
    trigger_context:
      row.trigger === 'manual' || !row.scheduledFor
        ? { type: 'manual' }
        : { type: 'schedule', scheduled_at: row.scheduledFor.toISOString() },
    created_at: row.createdAt.toISOString(),
  };
}
