import { describe, expect, it } from 'vitest';
import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import { expectAppError } from '../testing/expect-app-error.js';
import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { MountedWorkspaceFs } from './mounted-workspace-fs.js';

runWorkspaceConformance('mount table (root mount only)', (options) =>
  Promise.resolve({ fs: new MountedWorkspaceFs([{ prefix: '', fs: new MemoryWorkspaceFs(options) }]) }),
);

async function table() {
  const runtime = new MemoryWorkspaceFs();
  const definitions = new MemoryWorkspaceFs();
  const memory = new MemoryWorkspaceFs();
  await runtime.writeText('work/out.txt', 'TODO runtime\n');
  await definitions.writeText('pdf/SKILL.md', 'TODO skill\n');
  await memory.writeText('facts.md', 'remember TODO\n');
  const fs = new MountedWorkspaceFs([
    { prefix: '', fs: runtime },
    { prefix: 'skills', fs: definitions, readOnly: true },
    { prefix: 'stores/team/memory', fs: memory },
  ]);
  return { fs, runtime, definitions, memory };
}

describe('mount table', () => {
  it('routes each path to the longest matching prefix', async () => {
    const { fs, memory } = await table();
    expect(await fs.readText('skills/pdf/SKILL.md')).toBe('TODO skill\n');
    await fs.writeText('stores/team/memory/new.md', 'n');
    expect(await memory.readText('new.md')).toBe('n');
    expect((await fs.stat('stores/team/memory/new.md'))?.path).toBe('stores/team/memory/new.md');
  });

  it('refuses writes to read-only mounts and to mount points', async () => {
    const { fs, definitions } = await table();
    await expectAppError(fs.writeText('skills/pdf/SKILL.md', 'hacked'), 'READ_ONLY');
    await expectAppError(fs.delete('skills/pdf', { recursive: true }), 'READ_ONLY');
    await expectAppError(fs.move('work/out.txt', 'skills/out.txt'), 'READ_ONLY');
    await expectAppError(fs.delete('stores/team/memory', { recursive: true }), 'INVALID_REQUEST');
    await expectAppError(fs.readText('skills/../../etc/passwd'), 'PATH_ESCAPE');
    expect(await definitions.readText('pdf/SKILL.md')).toBe('TODO skill\n');
    expect(fs.readOnly).toBe(false);
  });

  it('shows mounts in listings, with the directories leading to them', async () => {
    const { fs } = await table();
    expect((await fs.list('')).map((e) => e.path)).toEqual(['skills', 'stores', 'work']);
    expect((await fs.list('stores')).map((e) => e.path)).toEqual(['stores/team']);
    expect((await fs.list('', { recursive: true, glob: '**/*.md' })).map((e) => e.path)).toEqual([
      'skills/pdf/SKILL.md',
      'stores/team/memory/facts.md',
    ]);
    expect(await fs.stat('stores/team')).toMatchObject({ kind: 'directory' });
  });

  it('greps across mounts and moves between writable mounts', async () => {
    const { fs, runtime, memory } = await table();
    expect((await fs.grep('TODO')).map((m) => m.path)).toEqual([
      'skills/pdf/SKILL.md',
      'stores/team/memory/facts.md',
      'work/out.txt',
    ]);
    expect((await fs.grep('TODO', { path: 'skills' })).map((m) => m.path)).toEqual(['skills/pdf/SKILL.md']);
    await fs.move('work', 'stores/team/memory/archive');
    expect(await memory.readText('archive/out.txt')).toBe('TODO runtime\n');
    expect(await runtime.exists('work')).toBe(false);
  });

  it('requires a root mount', () => {
    expect(() => new MountedWorkspaceFs([{ prefix: 'a', fs: new MemoryWorkspaceFs() }])).toThrowError(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
  });
});
