import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlSubjects as S } from '@agentry/contracts';
import { pollUntil } from '@agentry/testing';
import { MemoryHousekeepingService } from '../src/memory/memory-housekeeping.service.js';
import { RetentionSweepService } from '../src/retention/retention-sweep.service.js';
import { startSchedulerPlatform, type SchedulerTestPlatform } from './scheduler-test-platform.js';

const PERIOD_MS = 2_000;
const DAY_MS = 86_400_000;
const TICKS = 4;

type Job = 'consolidation' | 'pruning' | 'retention';

/**
 * Memory consolidation, memory pruning and retention on two scheduler replicas: each job runs once per
 * period across both (never once per replica), and each does its work on the real tables.
 */
describe('scheduled housekeeping across scheduler replicas', () => {
  let platform: SchedulerTestPlatform;
  const ticks: Record<Job, Array<{ replica: number; at: number }>> = {
    consolidation: [],
    pruning: [],
    retention: [],
  };

  beforeAll(async () => {
    platform = await startSchedulerPlatform(2, {
      AGENTRY_MEMORY_CONSOLIDATION_INTERVAL_MS: String(PERIOD_MS),
      AGENTRY_MEMORY_PRUNE_DAYS: '3',
      AGENTRY_MEMORY_PRUNE_INTERVAL_MS: String(PERIOD_MS),
      AGENTRY_SESSION_RETENTION_DAYS: '1',
      AGENTRY_RETENTION_INTERVAL_MS: String(PERIOD_MS),
    });
    // Every tick of either replica goes through these methods: record who ran it and when.
    platform.replicas.forEach((app, replica) => {
      const memory = app.get(MemoryHousekeepingService);
      const retention = app.get(RetentionSweepService);
      const record =
        <T>(job: Job, run: () => Promise<T>) =>
        () => {
          ticks[job].push({ replica, at: Date.now() });
          return run();
        };
      memory.consolidate = record('consolidation', memory.consolidate.bind(memory));
      memory.prune = record('pruning', memory.prune.bind(memory));
      retention.tick = record('retention', retention.tick.bind(retention));
    });
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
  });

  async function writeAgentFile(tenantId: string, agentId: string, path: string, text: string) {
    const root = `tenants/${tenantId}/agents/${agentId}/shared`;
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (parent)
      await platform.db.prisma.workspaceFile.upsert({
        where: { root_path: { root, path: parent } },
        create: { tenantId, root, path: parent, parent: '', kind: 'dir', version: 0n },
        update: {},
      });
    const content = Buffer.from(text);
    await platform.db.prisma.workspaceFile.create({
      data: { tenantId, root, path, parent, kind: 'file', content, size: content.length },
    });
  }

  it('runs consolidation, pruning and retention once per period across two replicas, each doing its work', async () => {
    const { rpc, admin: actor } = platform;
    const agent = await rpc.request(S.createAgent, { actor, body: { name: 'remembers', model: 'scripted' } });
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
    await writeAgentFile(actor.tenantId, agent.id, `memory/${day(0)}.md`, '- The user prefers tea.\n');
    await writeAgentFile(actor.tenantId, agent.id, `memory/${day(10)}.md`, '- Old: the office moved.\n');
    const environment = await rpc.request(S.createEnvironment, {
      actor,
      body: { name: 'env', config: { type: 'remote' } },
    });
    const session = await rpc.request(S.createSession, {
      actor,
      body: { agent: agent.id, environment_id: environment.id },
    });
    const longAgo = new Date(Date.now() - 5 * DAY_MS);
    await platform.db.prisma.$executeRaw`
      UPDATE sessions SET archived_at = ${longAgo}, updated_at = ${longAgo} WHERE id = ${session.id}`;

    await pollUntil(
      `${TICKS} ticks of every job`,
      () => Object.values(ticks).every((list) => list.length >= TICKS) || undefined,
      90_000,
    );

    for (const [job, list] of Object.entries(ticks)) {
      const span = list.at(-1)!.at - list[0]!.at;
      // One tick per period: a tick per replica would give about twice as many in the same span.
      expect(list.length, `${job} ticks in ${span} ms`).toBeLessThanOrEqual(
        Math.floor((span + PERIOD_MS) / PERIOD_MS) + 1,
      );
    }
    // The work itself: MEMORY.md written from the ledger, the old ledger gone, the old archived session gone.
    const files = await platform.db.prisma.workspaceFile.findMany({
      where: { root: `tenants/${actor.tenantId}/agents/${agent.id}/shared`, kind: 'file' },
      select: { path: true },
    });
    expect(files.map((f) => f.path).sort()).toEqual(
      expect.arrayContaining(['MEMORY.md', `memory/${day(0)}.md`]),
    );
    expect(files.map((f) => f.path)).not.toContain(`memory/${day(10)}.md`);
    expect(await platform.db.prisma.session.count({ where: { id: session.id } })).toBe(0);
  }, 150_000);
});
