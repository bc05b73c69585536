import { describe, expect, it } from 'vitest';
import type { RuntimeSessionResource } from '@agentry/contracts';
import { resourceMounts } from './resource-mounts.js';

const stamps = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const file = (id: string, mountPath: string): RuntimeSessionResource => ({
  resource: { type: 'file', id: `sesrsc_${id}`, file_id: id, mount_path: mountPath, ...stamps },
});
const store = (access: 'read_write' | 'read_only', instructions?: string): RuntimeSessionResource => ({
  resource: {
    type: 'memory_store',
    memory_store_id: 'memstore_1',
    access,
    mount_path: '/mnt/memory/prefs',
    name: 'Prefs',
    instructions: instructions ?? null,
  },
});

describe('resourceMounts', () => {
  it('mounts files of one directory together, and leaves out a file outside /mnt', () => {
    const planned = resourceMounts([
      file('file_a', '/mnt/session/uploads/file_a'),
      file('file_b', '/mnt/session/uploads/file_b'),
      file('file_c', '/data/c.csv'),
    ]);
    expect(planned.mounts).toEqual([
      {
        path: '/mnt/session/uploads',
        source: {
          type: 'files',
          files: [
            { name: 'file_a', fileId: 'file_a' },
            { name: 'file_b', fileId: 'file_b' },
          ],
        },
      },
    ]);
    expect(planned.skipped).toEqual([
      { id: 'sesrsc_file_c', mountPath: '/data/c.csv', why: 'a file is mounted only below /mnt' },
    ]);
  });

  it('mounts a memory store writable only for read_write where the Hands write back, and says so in the prompt', () => {
    const writable = resourceMounts([store('read_write', 'Keep it short.')]);
    expect(writable.mounts).toEqual([
      { path: '/mnt/memory/prefs', source: { type: 'memory_store', storeId: 'memstore_1', writable: true } },
    ]);
    expect(writable.promptNotes[0]).toContain(
      'The memory store "Prefs" is mounted at /mnt/memory/prefs (read-write',
    );
    expect(writable.promptNotes[0]).toContain('Instructions for it: Keep it short.');

    expect(resourceMounts([store('read_only')]).promptNotes[0]).toContain('(read-only');
    const remote = resourceMounts([store('read_write')], { writable: false });
    expect(remote.mounts[0]!.source).toMatchObject({ writable: false });
    expect(remote.promptNotes[0]).toContain('(read-only');
  });
});
