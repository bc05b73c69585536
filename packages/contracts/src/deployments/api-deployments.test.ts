import { describe, expect, it } from 'vitest';
import {
  ApiCreateDeploymentRequestSchema,
  apiDeploymentToV1,
  apiDeploymentUpdateToV1,
  v1DeploymentToApi,
} from './api-deployments.js';
import { CreateDeploymentRequestSchema, type Deployment } from './deployments.js';

const stored: Deployment = {
  type: 'deployment',
  id: 'depl_1',
  name: 'nightly',
  description: null,
  agent: { type: 'agent', id: 'agent_1', version: 3 },
  environment_id: 'env_1',
  initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
  resources: [],
  vault_ids: [],
  schedule: { type: 'cron', expression: '0 6 * * *', timezone: 'UTC', last_run_at: null },
  status: 'active',
  paused_reason: null,
  metadata: {},
  created_at: '2026-12-01T00:00:00.000Z',
  updated_at: '2026-12-01T00:00:00.000Z',
  archived_at: null,
  webhook_enabled: false,
};

describe('/api deployments mapping', () => {
  it('maps a cron create onto a CMA definition with the text as one user message', () => {
    const body = ApiCreateDeploymentRequestSchema.parse({
      name: 'nightly',
      agentId: 'agent_1',
      agentVersion: 2,
      environmentId: 'env_1',
      triggerType: 'cron',
      cronExpression: '0 6 * * 1-5',
      timezone: 'Europe/Berlin',
      text: 'summarise',
    });
    const v1 = CreateDeploymentRequestSchema.parse(apiDeploymentToV1(body));
    expect(v1).toMatchObject({
      agent: { type: 'agent', id: 'agent_1', version: 2 },
      schedule: { type: 'cron', expression: '0 6 * * 1-5', timezone: 'Europe/Berlin' },
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'summarise' }] }],
    });
  });

  it('names cronExpression when a cron trigger has none, or a manual one has one', () => {
    const missing = ApiCreateDeploymentRequestSchema.safeParse({
      name: 'n',
      agentId: 'a',
      environmentId: 'e',
      triggerType: 'cron',
    });
    expect(missing.error?.issues[0]?.path).toEqual(['cronExpression']);
    const extra = ApiCreateDeploymentRequestSchema.safeParse({
      name: 'n',
      agentId: 'a',
      environmentId: 'e',
      cronExpression: '* * * * *',
    });
    expect(extra.error?.issues[0]?.path).toEqual(['cronExpression']);
  });

  it('clears the schedule when switching away from cron, and keeps the time zone when only the expression changes', () => {
    expect(apiDeploymentUpdateToV1({ triggerType: 'manual' }, stored)).toEqual({ schedule: null });
    expect(apiDeploymentUpdateToV1({ cronExpression: '*/5 * * * *' }, stored)).toEqual({
      schedule: { type: 'cron', expression: '*/5 * * * *', timezone: 'UTC' },
    });
    expect(apiDeploymentUpdateToV1({ name: 'renamed' }, stored)).toEqual({ name: 'renamed' });
  });

  it('renders the trigger type and shows a webhook token only when one is passed in', () => {
    expect(v1DeploymentToApi(stored)).toMatchObject({
      triggerType: 'cron',
      cronExpression: '0 6 * * *',
      text: 'go',
      enabled: true,
    });
    const hooked = { ...stored, schedule: null, webhook_enabled: true };
    expect(v1DeploymentToApi(hooked)).not.toHaveProperty('webhookToken');
    expect(v1DeploymentToApi(hooked, 'dwh_x')).toMatchObject({
      triggerType: 'webhook',
      webhookToken: 'dwh_x',
    });
  });
});
