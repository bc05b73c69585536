import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { DurableWorkspaces } from '../src/workspace/durable-workspaces.js';
import { quiet, startHands, type Hands } from './sandbox-fixture.js';

const hasBwrap = existsSync('/usr/bin/bwrap');

/**
 * Two workers on separate disks sharing one Postgres: what a session's calls wrote on the first is
 * there when the session is bound to the second (a new binding epoch), and goes on from there.
 */
describe.runIf(hasBwrap)("a session's workspace outlives the worker that held it", () => {
  let db: TestDatabase;
  let first: Hands;
  let second: Hands;

  beforeAll(async () => {
    db = await createTestDatabase();
    first = await startHands({ DATABASE_URL: db.url });
    second = await startHands({ DATABASE_URL: db.url });
  });

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await db?.drop();
  });

  const localFile = (hands: Hands, sessionId: string, path: string) =>
    join(hands.sandboxes.dirOf('tenant_hands', sessionId), 'workspace', path);

  it('restores files written by write and bash, and forgets deleted ones, on the next worker', async () => {
    const session = `sesn_durable_${Date.now()}`;
    expect(
      (
        await first.run(
          session,
          'write',
          { file_path: 'src/a.txt', content: 'from write' },
          { bindingEpoch: 1 },
        )
      ).isError,
    ).toBe(false);
    const shell = await first.run(
      session,
      'bash',
      {
        command:
          'mkdir -p out && echo from bash > out/b.txt && echo gone > c.txt && rm c.txt && echo kept > d.txt',
      },
      { bindingEpoch: 1 },
    );
    expect(shell.isError, first.text(shell)).toBe(false);
    expect((await first.run(session, 'bash', { command: 'rm d.txt' }, { bindingEpoch: 1 })).isError).toBe(
      false,
    );
    expect(existsSync(localFile(second, session, 'src/a.txt'))).toBe(false);
    // Kept in the worker's own table, apart from the dataplane's workspace_files.
    const stored = (table: string) =>
      db.prisma.$queryRawUnsafe<{ path: string }[]>(
        `SELECT path FROM ${table} WHERE root = $1 AND kind = 'file' ORDER BY path`,
        `tenants/tenant_hands/hands/sessions/${session}`,
      );
    expect((await stored('hands_workspace_files')).map((r) => r.path)).toEqual(['out/b.txt', 'src/a.txt']);
    expect(await stored('workspace_files')).toEqual([]);

    const read = await second.run(
      session,
      'bash',
      { command: 'cat src/a.txt out/b.txt; ls' },
      { bindingEpoch: 2 },
    );
    expect(second.text(read)).toMatch(/from write\s*from bash/);
    expect(second.text(read)).not.toMatch(/d\.txt|c\.txt/);

    // Back on the first worker (a third binding): its stale copy is replaced by what the second wrote.
    expect(
      (
        await second.run(
          session,
          'write',
          { file_path: 'src/a.txt', content: 'changed on the second' },
          { bindingEpoch: 2 },
        )
      ).isError,
    ).toBe(false);
    const back = await first.run(session, 'read', { file_path: 'src/a.txt' }, { bindingEpoch: 3 });
    expect(first.text(back)).toMatch(/changed on the second/);
  });

  it("tells the first tool call that the session moved here, not the sandbox's opening ahead of it", async () => {
    const session = `sesn_moved_${process.pid}`;
    const here = new DurableWorkspaces(first.config, quiet);
    const there = new DurableWorkspaces(second.config, quiet);
    Object.assign(there, { workerId: 'another-worker' });
    try {
      const dirsOf = (hands: Hands) => hands.sandboxes.durableDirsOf('tenant_hands', session);
      expect(await here.enter('tenant_hands', session, dirsOf(first), 1)).toEqual({ moved: false });
      // The turn opened the sandbox on the new worker ahead of its first call: nothing is said yet.
      expect(await there.enter('tenant_hands', session, dirsOf(second), 2, { tellsModel: false })).toEqual({
        moved: false,
      });
      expect(await there.enter('tenant_hands', session, dirsOf(second), 2)).toEqual({ moved: true });
      expect(await there.enter('tenant_hands', session, dirsOf(second), 2)).toEqual({ moved: false });
    } finally {
      await here.onApplicationShutdown();
      await there.onApplicationShutdown();
    }
  });

  it('without a binding keeps the worker-local behaviour (nothing restored)', async () => {
    const session = `sesn_unbound_${Date.now()}`;
    await first.run(session, 'write', { file_path: 'x.txt', content: 'local only' });
    const elsewhere = await second.run(session, 'read', { file_path: 'x.txt' });
    expect(elsewhere.isError).toBe(true);
  });
});
