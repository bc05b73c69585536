import { describe, expect, it } from 'vitest';
import {
  assertDistinctMounts,
  prepareResource,
  repositoryName,
  storeSlug,
  toPublicResource,
} from './session-resource.records.js';

const targets = { memoryStore: () => ({ name: 'User Preferences!', description: null }) };
const now = new Date('2026-01-01T00:00:00Z');

describe('session resource records', () => {
  it('gives each resource an id and CMA default mount path, and keeps the token out of the record', () => {
    const repo = prepareResource(
      {
        type: 'github_repository',
        url: 'https://github.com/acme/widgets.git',
        authorization_token: 'ghp_secret',
      },
      targets,
      now,
    );
    expect(repo.record).toMatchObject({
      type: 'github_repository',
      mount_path: '/workspace/widgets',
      checkout: null,
    });
    expect(repo.record.id).toMatch(/^sesrsc_/);
    expect(JSON.stringify(repo.record)).not.toContain('ghp_secret');
    expect(repo.token).toBe('ghp_secret');

    expect(prepareResource({ type: 'file', file_id: 'file_01ABC' }, targets, now).record.mount_path).toBe(
      '/mnt/session/uploads/file_01ABC',
    );
    expect(
      prepareResource({ type: 'memory_store', memory_store_id: 'memstore_1' }, targets, now).record,
    ).toMatchObject({
      access: 'read_write',
      mount_path: '/mnt/memory/user-preferences',
      name: 'User Preferences!',
      description: '',
      instructions: null,
    });
  });

  it('refuses mount paths that are not normalized, or a repository outside the workspace', () => {
    expect(() =>
      prepareResource({ type: 'file', file_id: 'f', mount_path: '/a/../etc' }, targets, now),
    ).toThrowError(/mount_path/);
    expect(() => prepareResource({ type: 'file', file_id: 'f', mount_path: '/' }, targets, now)).toThrowError(
      /mount_path/,
    );
    expect(() =>
      prepareResource(
        { type: 'github_repository', url: 'https://github.com/a/b', mount_path: '/repo' },
        targets,
        now,
      ),
    ).toThrowError(/below \/workspace\//);
  });

  it('names repositories and stores from their URL and name', () => {
    expect(repositoryName('https://github.com/acme/widgets')).toBe('widgets');
    expect(() => repositoryName('https://github.com/')).toThrowError(/url/);
    expect(storeSlug('  Team: Notes  ')).toBe('team-notes');
  });

  it('refuses overlapping mounts', () => {
    const at = (mount_path: string) => ({
      type: 'file' as const,
      id: 'x',
      file_id: 'f',
      mount_path,
      created_at: '',
      updated_at: '',
    });
    expect(() => assertDistinctMounts([at('/data'), at('/data/x')])).toThrowError(/overlap/);
    expect(() => assertDistinctMounts([at('/data'), at('/database')])).not.toThrow();
  });

  it('never returns a token a stored record still holds', () => {
    expect(
      toPublicResource({ type: 'github_repository', url: 'u', authorization_token: 't' }),
    ).not.toHaveProperty('authorization_token');
  });
});
