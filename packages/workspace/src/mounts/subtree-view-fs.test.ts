import { describe, expect, it } from 'vitest';
import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import { expectAppError } from '../testing/expect-app-error.js';
import { SubtreeViewFs } from './subtree-view-fs.js';

async function agentWorkspace() {
  const fs = new MemoryWorkspaceFs();
  await fs.writeText('AGENTS.md', 'Be brief.');
  await fs.writeText('knowledge/pricing.md', 'Gold costs 42.');
  await fs.writeText('plans/PLAN.md', 'an old shared plan');
  await fs.writeText('large_tool_results/t1.txt', 'old output');
  return fs;
}

describe('subtree view', () => {
  it('shows only the included top-level entries, read-only', async () => {
    const view = new SubtreeViewFs(await agentWorkspace(), { include: ['AGENTS.md', 'knowledge'] });
    expect((await view.list('', { recursive: true })).map((e) => e.path)).toEqual([
      'AGENTS.md',
      'knowledge',
      'knowledge/pricing.md',
    ]);
    expect(await view.readText('knowledge/pricing.md')).toBe('Gold costs 42.');
    expect(await view.stat('plans/PLAN.md')).toBeNull();
    await expectAppError(view.readText('plans/PLAN.md'), 'NOT_FOUND');
    expect((await view.grep('old|Gold')).map((m) => m.path)).toEqual(['knowledge/pricing.md']);
    await expectAppError(view.writeText('knowledge/new.md', 'x'), 'READ_ONLY');
    await expectAppError(view.readText('../plans/PLAN.md'), 'PATH_ESCAPE');
  });

  it('roots the view at a directory, and a missing one is an empty tree', async () => {
    const fs = await agentWorkspace();
    const results = new SubtreeViewFs(fs, { dir: 'large_tool_results' });
    expect((await results.list('')).map((e) => e.path)).toEqual(['t1.txt']);
    expect(await results.readText('t1.txt')).toBe('old output');
    expect(await new SubtreeViewFs(fs, { dir: 'nothing/yet' }).list('', { recursive: true })).toEqual([]);
  });
});
