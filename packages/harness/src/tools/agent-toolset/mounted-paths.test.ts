import { MemoryWorkspaceFs, ReadOnlyWorkspaceFs } from '@agentry/workspace';
import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../tool.js';
import { AGENT_FILE_TOOLS } from './agent-file.tools.js';

const tool = (name: string) => AGENT_FILE_TOOLS.find((t) => t.name === name)!;
const text = (outcome: Awaited<ReturnType<ReturnType<typeof tool>['execute']>>) =>
  outcome.status === 'pending' ? '' : outcome.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

async function context(): Promise<ToolContext> {
  const workspace = new MemoryWorkspaceFs();
  await workspace.writeText('notes.md', 'mine');
  const mounted = new MemoryWorkspaceFs();
  await mounted.writeText('agent/knowledge/pricing.md', 'Gold costs 42.');
  return {
    toolCallId: 't',
    fs: workspace,
    mounts: [{ path: '/mnt', fs: new ReadOnlyWorkspaceFs(mounted) }],
    signal: new AbortController().signal,
    sessionId: 's',
    agentId: 'a',
    values: {},
  };
}

describe('file tools on the mounts beside the workspace', () => {
  it('read, glob and grep reach absolute paths under a mount and show them absolute', async () => {
    const ctx = await context();
    expect(text(await tool('read').execute({ file_path: '/mnt/agent/knowledge/pricing.md' }, ctx))).toBe(
      'Gold costs 42.',
    );
    expect(text(await tool('read').execute({ file_path: 'notes.md' }, ctx))).toBe('mine');
    expect(text(await tool('glob').execute({ pattern: '**/*.md', path: '/mnt/agent' }, ctx))).toBe(
      '/mnt/agent/knowledge/pricing.md',
    );
    expect(text(await tool('grep').execute({ pattern: 'Gold', path: '/mnt' }, ctx))).toBe(
      '/mnt/agent/knowledge/pricing.md:1:Gold costs 42.',
    );
  });

  it('refuses writes to a read-only mount and paths outside the workspace and the mounts', async () => {
    const ctx = await context();
    await expect(
      tool('write').execute({ file_path: '/mnt/agent/AGENTS.md', content: 'x' }, ctx),
    ).rejects.toMatchObject({ code: 'READ_ONLY' });
    await expect(tool('read').execute({ file_path: '/etc/passwd' }, ctx)).rejects.toMatchObject({
      code: 'PATH_ESCAPE',
      message: expect.stringContaining('the mounts (/mnt)') as unknown,
    });
  });
});
