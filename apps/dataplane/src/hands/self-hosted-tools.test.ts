import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@agentry/testing';
import { SELF_HOSTED_TOOL_NAMES, selfHostedTools } from './self-hosted-tools.js';

interface SdkTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The official SDK's `agent_toolset_20260401` implementation, the one a self-hosted worker runs (resolved as the harness resolves it). */
function officialToolset(): SdkTool[] {
  const require = createRequire(join(repoRoot(), 'packages/harness/package.json'));
  const toolset = require('@anthropic-ai/sdk/tools/agent-toolset/node') as {
    betaAgentToolset20260401: (ctx: { workdir: string }) => SdkTool[];
  };
  return toolset.betaAgentToolset20260401({ workdir: '/nonexistent' });
}

describe('self-hosted tools', () => {
  it('offer exactly the tools of the official worker toolset, with its names, descriptions and input schemas', () => {
    const official = officialToolset();
    const ours = selfHostedTools();
    expect(ours.map((t) => t.name).sort()).toEqual(official.map((t) => t.name).sort());
    for (const tool of ours) {
      const twin = official.find((t) => t.name === tool.name)!;
      expect(tool.inputSchema).toEqual(twin.input_schema);
      expect(tool.description).toBe(twin.description);
    }
    expect([...SELF_HOSTED_TOOL_NAMES].sort()).toEqual(['bash', 'edit', 'glob', 'grep', 'read', 'write']);
  });

  it('never run in the Brain: every call is suspended until a worker answers', async () => {
    for (const tool of selfHostedTools()) {
      await expect(tool.execute({}, {} as never)).resolves.toEqual({ status: 'pending' });
    }
  });
});
