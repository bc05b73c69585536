import { describe, expect, it } from 'vitest';
import { writtenWorkspacePath } from './written-path.js';

describe('writtenWorkspacePath', () => {
  it('names the file a write or an edit changed, relative to the workspace', () => {
    expect(writtenWorkspacePath('write', { file_path: 'src/a.ts', content: '' })).toBe('src/a.ts');
    expect(writtenWorkspacePath('edit', { file_path: '/workspace/src/a.ts' })).toBe('src/a.ts');
  });

  it('names nothing for other tools, mounts, or a path in another spelling', () => {
    expect(writtenWorkspacePath('bash', { command: 'true' })).toBeUndefined();
    expect(writtenWorkspacePath('read', { file_path: 'a.ts' })).toBeUndefined();
    for (const file_path of ['/mnt/memory/a.md', '/workspace', './a', 'a//b', 'a/../b', '../a', '', 7])
      expect(writtenWorkspacePath('write', { file_path })).toBeUndefined();
  });
});
