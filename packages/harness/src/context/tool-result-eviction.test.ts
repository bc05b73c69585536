import { describe, expect, it } from 'vitest';
import { allFilePaths, seededWorkspace } from './memory-workspace.fixture.js';
import { readFileTool } from '../tools/builtin/file-read.tools.js';
import { evictLargeToolResult } from './tool-result-eviction.js';

describe('evictLargeToolResult', () => {
  const big = `HEAD-MARKER${'a'.repeat(50_000)}MIDDLE-MARKER${'b'.repeat(50_000)}TAIL-MARKER`;

  it('writes the full output to a file and returns a head + tail preview pointing at it', async () => {
    const fs = await seededWorkspace();
    const preview = await evictLargeToolResult(fs, {
      toolUseId: 'toolu_01/x',
      toolName: 'execute',
      text: big,
    });
    const path = 'large_tool_results/toolu_01_x.txt';
    expect(await fs.readText(path)).toBe(big);
    expect(preview).toContain(`saved to ${path}`);
    expect(preview).toContain(`read_file with path "${path}"`);
    expect(preview).toContain('HEAD-MARKER');
    expect(preview).toContain('TAIL-MARKER');
    expect(preview).not.toContain('MIDDLE-MARKER');
    expect(preview.length).toBeLessThan(4_600);
  });

  it('the file the preview points at reads back in full through read_file', async () => {
    const fs = await seededWorkspace();
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    const preview = await evictLargeToolResult(fs, { toolUseId: 'call_9', toolName: 'execute', text: lines });
    const path = /read_file with path "([^"]+)"/.exec(preview)?.[1] as string;
    const ctx = {
      toolCallId: 'r1',
      fs,
      signal: new AbortController().signal,
      sessionId: 's',
      agentId: 'a',
      values: {},
    };
    const page = await readFileTool.execute({ path, offset: 2_500, limit: 2 }, ctx);
    expect(page.status === 'ok' && page.content[0]?.type === 'text' && page.content[0].text).toBe(
      `  2501\tline 2500 ${'x'.repeat(20)}\n  2502\tline 2501 ${'x'.repeat(20)}`,
    );
  });

  it('leaves outputs under the threshold and outputs of read tools untouched', async () => {
    const fs = await seededWorkspace();
    expect(await evictLargeToolResult(fs, { toolUseId: 't1', toolName: 'execute', text: 'small' })).toBe(
      'small',
    );
    expect(await evictLargeToolResult(fs, { toolUseId: 't2', toolName: 'read_file', text: big })).toBe(big);
    expect((await allFilePaths(fs)).length).toBe(0);
  });

  it('respects a custom threshold and preview size', async () => {
    const fs = await seededWorkspace();
    const text = `${'x'.repeat(100)}${'y'.repeat(100)}`;
    const preview = await evictLargeToolResult(fs, {
      toolUseId: 't3',
      toolName: 'web_fetch',
      text,
      thresholdChars: 150,
      previewChars: 10,
    });
    expect(preview).toContain(`\n${'x'.repeat(10)}\n`);
    expect(preview).toContain(`\n${'y'.repeat(10)}`);
    expect(preview).not.toContain('x'.repeat(11));
    expect(await fs.readText('large_tool_results/t3.txt')).toBe(text);
  });
});
