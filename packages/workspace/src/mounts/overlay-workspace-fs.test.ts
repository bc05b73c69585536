import { describe, expect, it } from 'vitest';
import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import { expectAppError } from '../testing/expect-app-error.js';
import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { OverlayWorkspaceFs } from './overlay-workspace-fs.js';
import { ReadOnlyWorkspaceFs } from './read-only-workspace-fs.js';

runWorkspaceConformance('overlay (empty lower)', (options) =>
  Promise.resolve({
    fs: new OverlayWorkspaceFs(
      new ReadOnlyWorkspaceFs(new MemoryWorkspaceFs()),
      new MemoryWorkspaceFs(options),
    ),
  }),
);

async function seeded() {
  const definitions = new MemoryWorkspaceFs();
  await definitions.writeText('AGENTS.md', '# Agent\nBe concise.\n');
  await definitions.writeText('MEMORY.md', 'fact one\n');
  await definitions.writeText('skills/pdf/SKILL.md', '---\nname: pdf\n---\nTODO read pdfs\n');
  const runtime = new MemoryWorkspaceFs();
  return { definitions, runtime, fs: new OverlayWorkspaceFs(new ReadOnlyWorkspaceFs(definitions), runtime) };
}

describe('overlay of a definition layer under a runtime layer', () => {
  it('reads through to the definition layer and copies up on write', async () => {
    const { definitions, runtime, fs } = await seeded();
    expect(await fs.readText('AGENTS.md')).toBe('# Agent\nBe concise.\n');
    await fs.writeText('AGENTS.md', '# Agent\nBe verbose.\n');
    expect(await fs.readText('AGENTS.md')).toBe('# Agent\nBe verbose.\n');
    expect(await definitions.readText('AGENTS.md')).toBe('# Agent\nBe concise.\n');
    expect(await runtime.readText('AGENTS.md')).toBe('# Agent\nBe verbose.\n');
  });

  it('appends to a definition file without changing it', async () => {
    const { definitions, fs } = await seeded();
    await fs.appendText('MEMORY.md', 'fact two\n');
    await fs.appendText('MEMORY.md', 'fact three\n');
    expect(await fs.readText('MEMORY.md')).toBe('fact one\nfact two\nfact three\n');
    expect(await definitions.readText('MEMORY.md')).toBe('fact one\n');
  });

  it('applies CAS against the layer the version came from', async () => {
    const { fs } = await seeded();
    const lowerVersion = (await fs.stat('AGENTS.md'))!.version;
    expect(lowerVersion).toMatch(/^lower:/);
    const written = await fs.writeText('AGENTS.md', 'first edit', { ifVersion: lowerVersion });
    expect(written.version).toMatch(/^upper:/);
    await expectAppError(fs.writeText('AGENTS.md', 'second edit', { ifVersion: lowerVersion }), 'CONFLICT');
    const racers = await Promise.allSettled([
      fs.writeText('MEMORY.md', 'a', { ifVersion: (await fs.stat('MEMORY.md'))!.version }),
      fs.writeText('MEMORY.md', 'b', { ifVersion: (await fs.stat('MEMORY.md'))!.version }),
    ]);
    expect(racers.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('merges listings and lets runtime files shadow definition matches in grep', async () => {
    const { fs } = await seeded();
    await fs.writeText('notes/todo.md', 'TODO write notes\n');
    expect((await fs.list('', { recursive: true })).map((e) => e.path)).toEqual([
      'AGENTS.md',
      'MEMORY.md',
      'notes',
      'notes/todo.md',
      'skills',
      'skills/pdf',
      'skills/pdf/SKILL.md',
    ]);
    expect((await fs.grep('TODO')).map((m) => m.path)).toEqual(['notes/todo.md', 'skills/pdf/SKILL.md']);
    await fs.writeText('skills/pdf/SKILL.md', 'done\n');
    expect((await fs.grep('TODO')).map((m) => m.path)).toEqual(['notes/todo.md']);
  });

  it('refuses to delete or move definition files', async () => {
    const { fs } = await seeded();
    await expectAppError(fs.delete('AGENTS.md'), 'READ_ONLY');
    await expectAppError(fs.delete('skills', { recursive: true }), 'READ_ONLY');
    await expectAppError(fs.move('MEMORY.md', 'OLD.md'), 'READ_ONLY');
    await fs.writeText('scratch.md', 'x');
    await expectAppError(fs.move('scratch.md', 'AGENTS.md'), 'ALREADY_EXISTS');
    await fs.delete('scratch.md');
    expect(await fs.exists('scratch.md')).toBe(false);
    await expectAppError(fs.mkdir('AGENTS.md'), 'ALREADY_EXISTS');
  });
});

describe('read-only view', () => {
  it('serves reads and refuses every write with READ_ONLY', async () => {
    const inner = new MemoryWorkspaceFs();
    await inner.writeText('a.md', 'A');
    const fs = new ReadOnlyWorkspaceFs(inner);
    expect(fs.readOnly).toBe(true);
    expect(await fs.readText('a.md')).toBe('A');
    await expectAppError(fs.writeText('a.md', 'B'), 'READ_ONLY');
    await expectAppError(fs.appendText('b.md', 'B'), 'READ_ONLY');
    await expectAppError(fs.delete('a.md'), 'READ_ONLY');
    await expectAppError(fs.move('a.md', 'c.md'), 'READ_ONLY');
    await expectAppError(fs.mkdir('d'), 'READ_ONLY');
    await expectAppError(fs.writeText('../escape', 'x'), 'PATH_ESCAPE');
    expect(await inner.readText('a.md')).toBe('A');
  });
});
