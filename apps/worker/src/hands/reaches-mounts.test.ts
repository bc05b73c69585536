import { describe, expect, it } from 'vitest';
import { reachesMounts } from './reaches-mounts.js';

describe('reachesMounts', () => {
  it('is false for a read, write or edit of a workspace path, relative or under /workspace', () => {
    expect(reachesMounts('read', { file_path: 'src/a.ts' })).toBe(false);
    expect(reachesMounts('write', { file_path: '/workspace/a.txt', content: '' })).toBe(false);
    expect(reachesMounts('edit', { file_path: '/workspace' })).toBe(false);
  });

  it('is true for any path that may name a mount, for commands and searches, and for input it cannot read', () => {
    expect(reachesMounts('read', { file_path: '/mnt/agent/AGENTS.md' })).toBe(true);
    expect(reachesMounts('write', { file_path: '/mnt/memory/notes/a.md' })).toBe(true);
    expect(reachesMounts('read', { file_path: '/workspaces/a' })).toBe(true);
    expect(reachesMounts('bash', { command: 'cat /mnt/agent/AGENTS.md' })).toBe(true);
    expect(reachesMounts('grep', { pattern: 'x' })).toBe(true);
    expect(reachesMounts('glob', { pattern: '*.md', path: '/workspace' })).toBe(true);
    expect(reachesMounts('read', {})).toBe(true);
    expect(reachesMounts('read', null)).toBe(true);
  });
});
