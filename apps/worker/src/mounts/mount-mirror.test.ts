import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionMount } from '@agentry/contracts';
import type { MountSourceDeps } from '@agentry/workspace';
import { MountMirror } from './mount-mirror.js';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Control holding one memory store's memories (the only read a memory store mount makes). */
function storeWith(memories: Record<string, string>): MountSourceDeps {
  return {
    tenantId: 't1',
    sql: {} as MountSourceDeps['sql'],
    content: {
      memories: () => Promise.resolve(Object.entries(memories).map(([path, content]) => ({ path, content }))),
      file: () => Promise.resolve(null),
      skillVersion: () => Promise.resolve(null),
    },
  };
}

describe('MountMirror below a writable memory store mount', () => {
  const dirs: string[] = [];
  afterEach(async () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

  async function mirror(): Promise<{ mirror: MountMirror; dir: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'mirror-'));
    dirs.push(dir);
    return { mirror: new MountMirror(dir), dir };
  }

  const writable: SessionMount = {
    path: '/mnt/memory/prefs',
    source: { type: 'memory_store', storeId: 'memstore_1', writable: true },
  };

  it('finds what the session created, changed and removed, each with the hash of the copy it started from', async () => {
    const { mirror: m, dir } = await mirror();
    await m.sync([writable], storeWith({ '/style.md': 'spaces\n', '/old.md': 'gone soon\n' }));
    expect(await readFile(join(dir, 'memory/prefs/style.md'), 'utf8')).toBe('spaces\n');
    expect(await m.changesOf(writable)).toEqual([]);

    await writeFile(join(dir, 'memory/prefs/style.md'), 'tabs\n');
    await mkdir(join(dir, 'memory/prefs/people'));
    await writeFile(join(dir, 'memory/prefs/people/ana.md'), 'French\n');
    await rm(join(dir, 'memory/prefs/old.md'));
    const changes = await m.changesOf(writable);
    expect(changes).toEqual(
      expect.arrayContaining([
        { path: 'style.md', content: 'tabs\n', base: sha('spaces\n') },
        { path: 'people/ana.md', content: 'French\n', base: null },
        { path: 'old.md', content: null, base: sha('gone soon\n') },
      ]),
    );
    expect(changes).toHaveLength(3);

    // Once written back they are not sent again, and the store's new state does not overwrite them.
    m.settled(writable, changes);
    expect(await m.changesOf(writable)).toEqual([]);
    await m.sync([writable], storeWith({ '/style.md': 'tabs\n', '/people/ana.md': 'French\n' }));
    expect(await m.changesOf(writable)).toEqual([]);
  });

  it('never reports changes below a read-only mount', async () => {
    const { mirror: m, dir } = await mirror();
    const readOnly: SessionMount = {
      ...writable,
      source: { ...writable.source, writable: false } as SessionMount['source'],
    };
    await m.sync([readOnly], storeWith({ '/style.md': 'spaces\n' }));
    await writeFile(join(dir, 'memory/prefs/style.md'), 'tabs\n');
    expect(await m.changesOf(readOnly)).toEqual([]);
  });
});
