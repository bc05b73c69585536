import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as R,
  ControlSubjects as D,
  ControlSubjects as S,
  DataplaneSubjects,
  DeploymentRunSubjects,
  Jobs,
  SchedulerSubjects,
  type DeploymentInitialEvent,
} from '@agentry/contracts';
import { JobQueue } from '@agentry/platform';
import { pollFor, quietPeriod } from '@agentry/testing';
import { DeploymentSchedules, schedulerIdOf } from '../src/deployments/deployment-schedules.service.js';
import {
  seedAgentAndEnvironment,
  startSchedulerPlatform,
  type SchedulerTestPlatform,
} from './scheduler-test-platform.js';

const message: DeploymentInitialEvent = {
  type: 'user.message',
  content: [{ type: 'text', text: 'Summarise the night' }],
};

const eventually = <T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000) =>
  pollFor('the expected state', probe, accept, timeoutMs);

describe('scheduler: deployment runs, cron schedulers and fires', () => {
  let platform: SchedulerTestPlatform;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    platform = await startSchedulerPlatform(2);
    ({ agentId, environmentId } = await seedAgentAndEnvironment(platform, 'reporter'));
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
  });

  const create = (extra: Record<string, unknown> = {}) =>
    platform.rpc.request(D.createDeployment, {
      actor: platform.admin,
      body: {
        name: 'nightly',
        agent: agentId,
        environment_id: environmentId,
        initial_events: [message],
        ...extra,
      },
    });
  const run = (id: string) =>
    platform.rpc.request(SchedulerSubjects.runDeployment, { actor: platform.admin, id });
  const schedulers = () => platform.replicas[0]!.get(JobQueue).schedulers(Jobs.deploymentFire);

  it('runs: a session of the deployment gets the initial events, the turn answers, the run succeeded', async () => {
    const deployment = await create({ metadata: { team: 'ops' } });
    const result = await run(deployment.id);
    expect(result).toMatchObject({
      deployment_id: deployment.id,
      error: null,
      trigger_context: { type: 'manual' },
      agent: { id: agentId, version: 1 },
    });
    const sessionId = result.session_id!;
    const session = await platform.rpc.request(S.getSession, { actor: platform.admin, id: sessionId });
    expect(session).toMatchObject({
      deployment_id: deployment.id,
      environment_id: environmentId,
      metadata: { team: 'ops' },
    });
    const log = await eventually(
      () => platform.rpc.request(DataplaneSubjects.listEvents, { actor: platform.admin, sessionId }),
      (page) => page.data.some((e) => e.event.type === 'agent.message'),
    );
    const userMessage = log.data.find((e) => e.event.type === 'user.message')?.event;
    expect(userMessage).toMatchObject({ content: [{ type: 'text', text: 'Summarise the night' }] });
    expect(log.data.some((e) => e.event.type === 'agent.message')).toBe(true);
    const record = await platform.rpc.request(D.getDeploymentRun, { actor: platform.admin, id: result.id });
    expect(record).toMatchObject({ session_id: sessionId, error: null });
    expect(
      (await platform.db.prisma.deploymentRun.findUniqueOrThrow({ where: { id: result.id } })).status,
    ).toBe('succeeded');
    const listed = await platform.rpc.request(D.listDeploymentRuns, {
      actor: platform.admin,
      query: { deployment_id: deployment.id },
    });
    expect(listed.data.map((r) => r.id)).toEqual([result.id]);
  });

  it('runs a paused deployment by hand but refuses its cron fires with 409 saying so, recording nothing for them', async () => {
    const deployment = await create();
    await platform.rpc.request(D.pauseDeployment, { actor: platform.admin, id: deployment.id });
    const manual = await run(deployment.id);
    expect(manual).toMatchObject({
      deployment_id: deployment.id,
      error: null,
      trigger_context: { type: 'manual' },
    });
    const fire = {
      actor: platform.admin,
      id: deployment.id,
      trigger: 'cron' as const,
      scheduled_for: new Date().toISOString(),
    };
    await expect(platform.rpc.request(DeploymentRunSubjects.start, fire)).rejects.toSatisfy(
      (e) => AppError.is(e, 'CONFLICT') && /paused/.test((e as Error).message),
    );
    expect(await platform.db.prisma.deploymentRun.count({ where: { deploymentId: deployment.id } })).toBe(1);
    expect(
      await platform.rpc.request(D.getDeployment, { actor: platform.admin, id: deployment.id }),
    ).toMatchObject({ status: 'paused' });
    await expect(run('depl_missing')).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
  });

  it('records a failed run and auto-pauses when the agent was archived', async () => {
    const agent = await platform.rpc.request(S.createAgent, {
      actor: platform.admin,
      body: { name: 'retired', model: 'scripted' },
    });
    const deployment = await create({ agent: agent.id });
    await platform.rpc.request(R.archiveAgent, { actor: platform.admin, id: agent.id });
    const result = await run(deployment.id);
    expect(result).toMatchObject({
      session_id: null,
      error: { type: 'agent_archived_error', message: expect.stringContaining(agent.id) as unknown },
    });
    const paused = await platform.rpc.request(D.getDeployment, { actor: platform.admin, id: deployment.id });
    expect(paused).toMatchObject({
      status: 'paused',
      paused_reason: { type: 'error', error: { type: 'agent_archived_error' } },
    });
    expect(await platform.db.prisma.session.count({ where: { deploymentId: deployment.id } })).toBe(0);
  });

  it('runs by webhook token, with a replacement message; an unknown token is not found', async () => {
    const deployment = await create();
    const { token } = await platform.rpc.request(DeploymentRunSubjects.setWebhook, {
      actor: platform.admin,
      id: deployment.id,
      enabled: true,
    });
    expect(token).toMatch(/^dwh_/);
    const stored = await platform.db.prisma.deployment.findUniqueOrThrow({ where: { id: deployment.id } });
    expect(stored.webhookTokenHash).not.toContain(token!);
    const override: DeploymentInitialEvent = {
      type: 'user.message',
      content: [{ type: 'text', text: 'from the hook' }],
    };
    const result = await platform.rpc.request(SchedulerSubjects.runDeploymentByWebhook, {
      token: token!,
      initial_events: [override],
    });
    expect(result).toMatchObject({ deployment_id: deployment.id, error: null });
    const log = await platform.rpc.request(DataplaneSubjects.listEvents, {
      actor: platform.admin,
      sessionId: result.session_id!,
      types: ['user.message'],
    });
    expect(log.data[0]?.event).toMatchObject({ content: [{ text: 'from the hook' }] });
    await expect(
      platform.rpc.request(SchedulerSubjects.runDeploymentByWebhook, { token: 'dwh_unknown' }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
  });

  it('keeps one job scheduler per active cron deployment through create, update, pause, unpause and archive', async () => {
    const deployment = await create({
      schedule: { type: 'cron', expression: '0 6 * * 1-5', timezone: 'Europe/Berlin' },
    });
    const id = schedulerIdOf(deployment.id);
    const find = async () => (await schedulers()).find((s) => s.id === id);
    expect(await eventually(find, (s) => s !== undefined)).toEqual({
      id,
      pattern: '0 6 * * 1-5',
      tz: 'Europe/Berlin',
    });

    await platform.rpc.request(D.updateDeployment, {
      actor: platform.admin,
      id: deployment.id,
      body: { schedule: { type: 'cron', expression: '*/15 * * * *', timezone: 'UTC' } },
    });
    expect(await eventually(find, (s) => s?.pattern === '*/15 * * * *')).toMatchObject({
      pattern: '*/15 * * * *',
      tz: 'UTC',
    });
    await platform.rpc.request(D.pauseDeployment, { actor: platform.admin, id: deployment.id });
    expect(await eventually(find, (s) => s === undefined)).toBeUndefined();
    await platform.rpc.request(D.unpauseDeployment, { actor: platform.admin, id: deployment.id });
    expect(await eventually(find, (s) => s !== undefined)).toMatchObject({ pattern: '*/15 * * * *' });
    await platform.rpc.request(D.archiveDeployment, { actor: platform.admin, id: deployment.id });
    expect(await eventually(find, (s) => s === undefined)).toBeUndefined();
  });

  it('the periodic sweep repairs what a lost change message left behind', async () => {
    const deployment = await create({
      schedule: { type: 'cron', expression: '30 2 * * *', timezone: 'UTC' },
    });
    const id = schedulerIdOf(deployment.id);
    await eventually(schedulers, (all) => all.some((s) => s.id === id));
    const queue = platform.replicas[0]!.get(JobQueue);
    await queue.removeScheduler(Jobs.deploymentFire, id);
    await queue.cron(
      Jobs.deploymentFire,
      schedulerIdOf('depl_gone'),
      { pattern: '* * * * *', tz: 'UTC' },
      {
        deploymentId: 'depl_gone',
        tenantId: platform.admin.tenantId,
        namespaceId: platform.admin.namespaceId,
      },
    );
    await platform.replicas[1]!.get(DeploymentSchedules).syncAll();
    const ids = (await schedulers()).map((s) => s.id);
    expect(ids).toContain(id);
    expect(ids).not.toContain(schedulerIdOf('depl_gone'));
    // Every scheduler belongs to an active cron deployment of the table.
    const active = await platform.db.prisma.deployment.findMany({
      where: { archivedAt: null, pausedAt: null },
    });
    expect(new Set(ids)).toEqual(
      new Set(active.filter((d) => d.schedule !== null).map((d) => schedulerIdOf(d.id))),
    );
  });

  it('fires through the run path once per scheduled time with two scheduler replicas', async () => {
    const deployment = await create({ schedule: { type: 'cron', expression: '0 0 1 1 *', timezone: 'UTC' } });
    // CMA cron has minutes; BullMQ's parser also takes seconds, which lets this test watch several fires.
    await platform.db.prisma.deployment.update({
      where: { id: deployment.id },
      data: { schedule: { type: 'cron', expression: '* * * * * *', timezone: 'UTC' } },
    });
    await platform.replicas[0]!.get(DeploymentSchedules).syncOne(deployment.id);
    await platform.replicas[1]!.get(DeploymentSchedules).syncOne(deployment.id);
    const runs = () =>
      platform.db.prisma.deploymentRun.findMany({
        where: { deploymentId: deployment.id, status: { not: 'pending' } },
      });
    await eventually(runs, (all) => all.length >= 3, 20_000);
    await platform.rpc.request(D.pauseDeployment, { actor: platform.admin, id: deployment.id });
    // Past the next scheduled second on both replicas: a fire the pause missed, or a second replica's
    // duplicate of one already run, would land in this window.
    await quietPeriod(1_500);
    const all = await runs();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const times = all.map((r) => r.scheduledFor!.getTime());
    expect(new Set(times).size).toBe(times.length);
    expect(times.every((t) => t % 1000 === 0)).toBe(true);
    expect(all.every((r) => r.trigger === 'cron' && r.sessionId !== null && r.error === null)).toBe(true);
    const listed = await platform.rpc.request(D.listDeploymentRuns, {
      actor: platform.admin,
      query: { deployment_id: deployment.id, trigger_type: 'schedule' },
    });
    expect(listed.data[0]).toMatchObject({ trigger_context: { type: 'schedule' } });
    const sessions = await platform.db.prisma.session.count({ where: { deploymentId: deployment.id } });
    expect(sessions).toBe(all.length);
  });
});
