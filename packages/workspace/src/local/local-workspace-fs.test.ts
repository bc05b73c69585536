import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { LocalWorkspaceFs } from './local-workspace-fs.js';

runWorkspaceConformance('local directory', async (options) => {
  const base = await mkdtemp(join(tmpdir(), 'ws-local-'));
  const outsideDir = join(base, 'outside');
  await mkdir(outsideDir);
  await writeFile(join(outsideDir, 'secret.txt'), 'host secret');
  const fs = new LocalWorkspaceFs({ ...options, root: join(base, 'root') });
  return {
    fs,
    outsideDir,
    createSymlink: async (path, target) => {
      await mkdir(fs.root, { recursive: true });
      await symlink(target, fs.hostPath(path));
    },
    escapedEntries: async () => {
      const stray = (await readdir(base)).filter((n) => n !== 'root' && n !== 'outside');
      const leaked = (await readdir(outsideDir)).filter((n) => n !== 'secret.txt');
      return [...stray, ...leaked.map((n) => `outside/${n}`)];
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
});

describe('local directory: two instances on one root', () => {
  it('lets exactly one create-only write win without a shared lock', async () => {
    const base = await mkdtemp(join(tmpdir(), 'ws-local-'));
    try {
      const a = new LocalWorkspaceFs({ root: base });
      const b = new LocalWorkspaceFs({ root: base });
      for (let i = 0; i < 10; i++) {
        const results = await Promise.allSettled([
          a.writeText(`claim-${i}`, 'a', { ifVersion: null }),
          b.writeText(`claim-${i}`, 'b', { ifVersion: null }),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect(results.find((r) => r.status === 'rejected')).toMatchObject({
          reason: { code: 'ALREADY_EXISTS' },
        });
      }
      expect((await readdir(base)).filter((n) => !n.startsWith('claim-'))).toEqual([]); // no temp files left behind
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
