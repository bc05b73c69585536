import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as S,
  DataplaneSubjects,
  DeploymentRunSubjects,
  Jobs,
} from '@agentry/contracts';
import { JobQueue } from '@agentry/platform';
import { pollFor } from '@agentry/testing';
import { DeploymentRunRepair } from '../src/deployments/deployment-run-repair.service.js';
import { DeploymentSchedules, schedulerIdOf } from '../src/deployments/deployment-schedules.service.js';
import {
  seedAgentAndEnvironment,
  startSchedulerPlatform,
  type SchedulerTestPlatform,
} from './scheduler-test-platform.js';

/**
 * Cron expressions the engine cannot run: refused when a deployment is written, and, when one reaches the
 * table anyway, skipped by the sweep without costing any other deployment its schedule.
 */
describe('deployment cron expressions, the schedule sweep and the repair of half-done runs', () => {
  let platform: SchedulerTestPlatform;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    platform = await startSchedulerPlatform(1);
    ({ agentId, environmentId } = await seedAgentAndEnvironment(platform, 'cron'));
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
  });

  const create = (expression: string) =>
    platform.rpc.request(S.createDeployment, {
      actor: platform.admin,
      body: {
        name: `every ${expression}`,
        agent: agentId,
        environment_id: environmentId,
        initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
        schedule: { type: 'cron', expression, timezone: 'Europe/Berlin' },
      },
    });

  it('refuses an expression the cron engine cannot run, naming the field, and stores nothing', async () => {
    for (const expression of ['60 * * * *', 'foo bar baz qux quux']) {
      const refused = await create(expression).catch((err: unknown) => err);
      expect(AppError.is(refused, 'INVALID_REQUEST')).toBe(true);
      expect((refused as AppError).message).toContain('schedule.expression');
    }
    expect(await platform.db.prisma.deployment.count()).toBe(0);
  });

  it('installs every valid deployment although one row holds an expression that cannot run', async () => {
    const valid = [await create('*/5 * * * *'), await create('0 9 * * 1-5'), await create('30 2 * * *')];
    const broken = await create('0 0 1 1 *');
    const queue = platform.replicas[0]!.get(JobQueue);
    // Each create also installs its schedule on the deployment-changed event, asynchronously: let those
    // land first, so none of them re-installs a schedule after the wipe below.
    const ids = [...valid, broken].map((d) => schedulerIdOf(d.id));
    await pollFor(
      'the schedules of the four new deployments',
      () => queue.schedulers(Jobs.deploymentFire),
      (schedulers) => ids.every((id) => schedulers.some((s) => s.id === id)),
      30_000,
    );
    await platform.db.prisma.deployment.update({
      where: { id: broken.id },
      data: { schedule: { type: 'cron', expression: '60 * * * *', timezone: 'Europe/Berlin' } },
    });
    // Start from an empty Redis, as after a restart: the sweep must rebuild all the valid ones.
    for (const s of await queue.schedulers(Jobs.deploymentFire))
      await queue.removeScheduler(Jobs.deploymentFire, s.id);

    const result = await platform.replicas[0]!.get(DeploymentSchedules).syncAll();

    expect(result).toMatchObject({ installed: 3, refused: 1 });
    const installed = (await queue.schedulers(Jobs.deploymentFire)).map((s) => s.id).sort();
    expect(installed).toEqual(valid.map((d) => schedulerIdOf(d.id)).sort());
    // The broken row is still readable, with no upcoming runs rather than an error.
    const read = await platform.rpc.request(S.getDeployment, { actor: platform.admin, id: broken.id });
    expect(read.schedule).toMatchObject({ expression: '60 * * * *', upcoming_runs_at: [] });
  });

  it('repairs runs a stopped scheduler left between their record and their first events', async () => {
    const { rpc, admin: actor } = platform;
    const deployment = await create('0 6 * * *');
    // What a scheduler that died right after control recorded the run leaves: a session with no events.
    const started = await rpc.request(DeploymentRunSubjects.start, {
      actor,
      id: deployment.id,
      trigger: 'cron',
      scheduled_for: '2026-01-01T05:00:00.000Z',
    });
    const sessionId = started.run.session_id!;
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    await platform.db.prisma.deploymentRun.update({
      where: { id: started.run.id },
      data: { startedAt: tenMinutesAgo },
    });
    // And one that died before its session existed.
    await platform.db.prisma.deploymentRun.create({
      data: {
        id: 'drun_stranded_pending',
        tenantId: actor.tenantId,
        deploymentId: deployment.id,
        trigger: 'cron',
        status: 'pending',
        scheduledFor: new Date('2026-01-02T05:00:00.000Z'),
        startedAt: tenMinutesAgo,
      },
    });
    const repair = platform.replicas[0]!.get(DeploymentRunRepair);

    expect(await repair.repair()).toBe(2);

    const log = await pollFor(
      'the repaired session to answer',
      () => rpc.request(DataplaneSubjects.listEvents, { actor, sessionId }),
      (page) => page.data.some((e) => e.event.type === 'agent.message'),
      30_000,
    );
    const userMessages = log.data.filter((e) => e.event.type === 'user.message');
    expect(userMessages).toHaveLength(1);
    expect(userMessages[0]!.event).toMatchObject({ content: [{ type: 'text', text: 'go' }] });
    const runs = await platform.db.prisma.deploymentRun.findMany({ where: { deploymentId: deployment.id } });
    expect(runs.find((r) => r.id === started.run.id)).toMatchObject({ status: 'succeeded', error: null });
    expect(runs.find((r) => r.id === 'drun_stranded_pending')).toMatchObject({
      status: 'failed',
      error: { type: 'unknown_error', message: 'The run stopped before its session was created' },
    });
    // Nothing is left to repair, and a second pass sends nothing twice.
    expect(await repair.repair()).toBe(0);
    const again = await rpc.request(DataplaneSubjects.listEvents, { actor, sessionId });
    expect(again.data.filter((e) => e.event.type === 'user.message')).toHaveLength(1);
  });
});
