import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as R,
  ControlSubjects as D,
  ControlSubjects as S,
  DeploymentRunSubjects as Runs,
  ID_PREFIXES,
  newId,
  type DeploymentInitialEvent,
} from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

describe('control: deployments and their runs over NATS', () => {
  let control: ControlTestApp;
  let agentId: string;
  let environmentId: string;
  const message: DeploymentInitialEvent = {
    type: 'user.message',
    content: [{ type: 'text', text: 'Summarise yesterday’s issues' }],
  };

  beforeAll(async () => {
    control = await startControl({}, { dataplane: true });
    agentId = (
      await control.rpc.request(S.createAgent, {
        actor: control.admin,
        body: { name: 'reporter', model: 'scripted' },
      })
    ).id;
    environmentId = (
      await control.rpc.request(S.createEnvironment, {
        actor: control.admin,
        body: { name: 'env', config: { type: 'local' } },
      })
    ).id;
  });
  afterAll(async () => {
    await control?.close();
  });

  const create = (extra: Record<string, unknown> = {}) =>
    control.rpc.request(D.createDeployment, {
      actor: control.admin,
      body: {
        name: 'nightly report',
        agent: agentId,
        environment_id: environmentId,
        initial_events: [message],
        schedule: { type: 'cron', expression: '0 6 * * 1-5', timezone: 'Europe/Berlin' },
        ...extra,
      },
    });

  it('defines a cron deployment following the agent’s latest version', async () => {
    const deployment = await create();
    expect(deployment).toMatchObject({
      type: 'deployment',
      status: 'active',
      paused_reason: null,
      agent: { type: 'agent', id: agentId, version: 1 },
      schedule: { type: 'cron', expression: '0 6 * * 1-5', timezone: 'Europe/Berlin' },
      initial_events: [message],
    });
    expect(await control.rpc.request(D.getDeployment, { actor: control.admin, id: deployment.id })).toEqual(
      deployment,
    );
  });

  it('pauses and unpauses, and lists by status', async () => {
    const deployment = await create();
    const paused = await control.rpc.request(D.pauseDeployment, { actor: control.admin, id: deployment.id });
    expect(paused).toMatchObject({ status: 'paused', paused_reason: { type: 'manual' } });
    const pausedList = await control.rpc.request(D.listDeployments, {
      actor: control.admin,
      query: { status: 'paused' },
    });
    expect(pausedList.data.map((d) => d.id)).toEqual([deployment.id]);
    const active = await control.rpc.request(D.unpauseDeployment, {
      actor: control.admin,
      id: deployment.id,
    });
    expect(active).toMatchObject({ status: 'active', paused_reason: null });
  });

  it('rejects a bad cron expression or time zone naming the field, and creates nothing', async () => {
    const before = await control.db.prisma.deployment.count();
    const bad = async (schedule: unknown, field: RegExp) => {
      await expect(
        control.rpc.request(unchecked(D.createDeployment), {
          actor: control.admin,
          body: {
            name: 'bad',
            agent: agentId,
            environment_id: environmentId,
            initial_events: [message],
            schedule,
          },
        }),
      ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && field.test((e as Error).message));
    };
    await bad({ type: 'cron', expression: '0 6 * *', timezone: 'UTC' }, /expression/);
    await bad({ type: 'cron', expression: '0 6 L * *', timezone: 'UTC' }, /expression/);
    await bad({ type: 'cron', expression: '0 6 * * *', timezone: 'Mars/Olympus' }, /timezone/);
    expect(await control.db.prisma.deployment.count()).toBe(before);
  });

  it('answers 404 for references to an unknown agent, environment or vault, naming the field', async () => {
    const before = await control.db.prisma.deployment.count();
    await expect(create({ agent: 'agent_missing' })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND') && /^agent:/.test((e as Error).message),
    );
    await expect(create({ environment_id: 'env_missing' })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND') && /^environment_id:/.test((e as Error).message),
    );
    await expect(create({ vault_ids: ['vlt_missing'] })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND') && /^vault_ids\.0:/.test((e as Error).message),
    );
    expect(await control.db.prisma.deployment.count()).toBe(before);
  });

  it('updates the schedule, and refuses changes once archived', async () => {
    const deployment = await create();
    const updated = await control.rpc.request(D.updateDeployment, {
      actor: control.admin,
      id: deployment.id,
      body: {
        schedule: { type: 'cron', expression: '*/15 * * * *', timezone: 'UTC' },
        metadata: { owner: 'ops' },
      },
    });
    expect(updated).toMatchObject({
      schedule: { expression: '*/15 * * * *', timezone: 'UTC' },
      metadata: { owner: 'ops' },
    });
    const archived = await control.rpc.request(D.archiveDeployment, {
      actor: control.admin,
      id: deployment.id,
    });
    expect(archived.archived_at).not.toBeNull();
    await expect(
      control.rpc.request(D.pauseDeployment, { actor: control.admin, id: deployment.id }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'PRECONDITION_FAILED'));
  });

  it('starts a run: the session belongs to the deployment and the run carries it until finished', async () => {
    const deployment = await create({ schedule: null, metadata: { team: 'ops' } });
    const started = await control.rpc.request(Runs.start, {
      actor: control.admin,
      id: deployment.id,
      trigger: 'manual',
    });
    expect(started.initial_events).toEqual([message]);
    expect(started.run).toMatchObject({
      deployment_id: deployment.id,
      error: null,
      session_id: expect.stringMatching(/^sesn_/) as unknown,
    });
    const session = await control.rpc.request(S.getSession, {
      actor: control.admin,
      id: started.run.session_id!,
    });
    expect(session).toMatchObject({
      deployment_id: deployment.id,
      metadata: { team: 'ops' },
      agent: { id: agentId },
    });
    const finished = await control.rpc.request(Runs.finish, { actor: control.admin, run_id: started.run.id });
    expect(finished).toMatchObject({ id: started.run.id, error: null });
    expect(
      (await control.db.prisma.deploymentRun.findUniqueOrThrow({ where: { id: started.run.id } })).status,
    ).toBe('succeeded');
    expect(
      (await control.rpc.request(D.getDeployment, { actor: control.admin, id: deployment.id })).schedule,
    ).toBeNull();
  });

  it('records at most one run per deployment and scheduled time', async () => {
    const deployment = await create();
    const at = '2026-12-01T06:00:00.000Z';
    await control.rpc.request(Runs.start, {
      actor: control.admin,
      id: deployment.id,
      trigger: 'cron',
      scheduled_for: at,
    });
    await expect(
      control.rpc.request(Runs.start, {
        actor: control.admin,
        id: deployment.id,
        trigger: 'cron',
        scheduled_for: at,
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT'));
    expect(await control.db.prisma.session.count({ where: { deploymentId: deployment.id } })).toBe(1);
  });

  it('refuses webhook runs of a paused deployment and any run of an archived one with 409, recording nothing', async () => {
    const paused = await create();
    await control.rpc.request(D.pauseDeployment, { actor: control.admin, id: paused.id });
    await expect(
      control.rpc.request(Runs.start, { actor: control.admin, id: paused.id, trigger: 'webhook' }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT') && /paused/.test((e as Error).message));
    const archived = await create();
    await control.rpc.request(D.archiveDeployment, { actor: control.admin, id: archived.id });
    await expect(
      control.rpc.request(Runs.start, { actor: control.admin, id: archived.id, trigger: 'manual' }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT') && /archived/.test((e as Error).message));
    expect(
      await control.db.prisma.deploymentRun.count({
        where: { deploymentId: { in: [paused.id, archived.id] } },
      }),
    ).toBe(0);
  });

  it('fails the run and auto-pauses when the environment was archived', async () => {
    const env = await control.rpc.request(S.createEnvironment, {
      actor: control.admin,
      body: { name: 'doomed', config: { type: 'local' } },
    });
    const deployment = await create({ environment_id: env.id });
    await control.rpc.request(R.archiveEnvironment, { actor: control.admin, id: env.id });
    const started = await control.rpc.request(Runs.start, {
      actor: control.admin,
      id: deployment.id,
      trigger: 'manual',
    });
    expect(started.run).toMatchObject({ session_id: null, error: { type: 'environment_archived_error' } });
    const after = await control.rpc.request(D.getDeployment, { actor: control.admin, id: deployment.id });
    expect(after).toMatchObject({
      status: 'paused',
      paused_reason: { type: 'error', error: { type: 'environment_archived_error' } },
    });
    const failed = await control.rpc.request(D.listDeploymentRuns, {
      actor: control.admin,
      query: { deployment_id: deployment.id, has_error: true },
    });
    expect(failed.data.map((r) => r.id)).toEqual([started.run.id]);
  });

  it('mints a webhook token once, stores only its hash, resolves it, and forgets it on archive', async () => {
    const deployment = await create();
    const { token, deployment: withHook } = await control.rpc.request(Runs.setWebhook, {
      actor: control.admin,
      id: deployment.id,
      enabled: true,
    });
    expect(withHook.webhook_enabled).toBe(true);
    const row = await control.db.prisma.deployment.findUniqueOrThrow({ where: { id: deployment.id } });
    expect(row.webhookTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(
      JSON.stringify(await control.rpc.request(D.getDeployment, { actor: control.admin, id: deployment.id })),
    ).not.toContain(token!);
    const resolved = await control.rpc.request(Runs.resolveWebhook, { token: token! });
    expect(resolved).toMatchObject({
      deployment_id: deployment.id,
      actor: { tenantId: control.admin.tenantId, namespaceId: control.admin.namespaceId },
    });
    await control.rpc.request(D.archiveDeployment, { actor: control.admin, id: deployment.id });
    await expect(control.rpc.request(Runs.resolveWebhook, { token: token! })).rejects.toSatisfy((e) =>
      AppError.is(e, 'NOT_FOUND'),
    );
  });

  it('lists and retrieves run records, filtered by deployment and error', async () => {
    const deployment = await create();
    const ok = newId(ID_PREFIXES.deploymentRun);
    const failed = newId(ID_PREFIXES.deploymentRun);
    await control.db.prisma.deploymentRun.createMany({
      data: [
        {
          id: ok,
          tenantId: control.admin.tenantId,
          deploymentId: deployment.id,
          trigger: 'cron',
          status: 'succeeded',
          scheduledFor: new Date('2026-11-30T05:00:00Z'),
          sessionId: 'sesn_x',
        },
        {
          id: failed,
          tenantId: control.admin.tenantId,
          deploymentId: deployment.id,
          trigger: 'manual',
          status: 'failed',
          error: { type: 'environment_unavailable' },
        },
      ],
    });
    const run = await control.rpc.request(D.getDeploymentRun, { actor: control.admin, id: ok });
    expect(run).toMatchObject({
      deployment_id: deployment.id,
      session_id: 'sesn_x',
      error: null,
      agent: { id: agentId },
      trigger_context: { type: 'schedule', scheduled_at: '2026-11-30T05:00:00.000Z' },
    });
    const errors = await control.rpc.request(D.listDeploymentRuns, {
      actor: control.admin,
      query: { deployment_id: deployment.id, has_error: true },
    });
    expect(errors.data.map((r) => r.id)).toEqual([failed]);
    expect(errors.data[0]).toMatchObject({
      trigger_context: { type: 'manual' },
      error: { type: 'environment_unavailable' },
    });
    const all = await control.rpc.request(D.listDeploymentRuns, {
      actor: control.admin,
      query: { deployment_id: deployment.id },
    });
    expect(all.data).toHaveLength(2);
  });
});
