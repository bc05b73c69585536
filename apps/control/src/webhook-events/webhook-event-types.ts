import type { WebhookEventType } from '@agentry/contracts';

/**
 * The webhook event of a recorded change, by the audit entry's resource type and action. Changes with no
 * entry here (users, keys, the endpoints themselves) are not webhook events.
 */
const BY_AUDIT_ENTRY: Record<string, Record<string, WebhookEventType>> = {
  agent: {
    create: 'agent.created',
    update: 'agent.updated',
    archive: 'agent.archived',
    delete: 'agent.deleted',
  },
  environment: {
    create: 'environment.created',
    update: 'environment.updated',
    archive: 'environment.archived',
    delete: 'environment.deleted',
  },
  session: {
    create: 'session.created',
    update: 'session.updated',
    archive: 'session.archived',
    delete: 'session.deleted',
  },
  vault: { create: 'vault.created', archive: 'vault.archived', delete: 'vault.deleted' },
  vault_credential: {
    create: 'vault_credential.created',
    archive: 'vault_credential.archived',
    delete: 'vault_credential.deleted',
    refresh_failed: 'vault_credential.refresh_failed',
  },
  memory_store: {
    create: 'memory_store.created',
    archive: 'memory_store.archived',
    delete: 'memory_store.deleted',
  },
  deployment_run: {
    start: 'deployment_run.started',
    succeed: 'deployment_run.succeeded',
    fail: 'deployment_run.failed',
  },
  deployment: {
    create: 'deployment.created',
    update: 'deployment.updated',
    pause: 'deployment.paused',
    unpause: 'deployment.unpaused',
    archive: 'deployment.archived',
    delete: 'deployment.deleted',
  },
};

export function webhookEventOf(resourceType: string, action: string): WebhookEventType | undefined {
  return BY_AUDIT_ENTRY[resourceType]?.[action];
}
