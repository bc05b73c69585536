import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import type { ModelPort, ModelRequest } from '../model/model-port.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import { collectRun, ofType, workspaceWith } from './run-collect.fixture.js';

describe('sub-agents', () => {
  it('spawns a declared sub-agent as a child harness and returns its answer to the parent', async () => {
    const requests: ModelRequest[] = [];
    const inner = new ScriptedModel({
      script: {
        turns: [
          { match: '^summarise', reply: ['The notes say: ship on Monday.'] },
          {
            match: 'delegate',
            reply: [
              {
                toolCall: {
                  name: 'agent_spawn',
                  input: { agent_id: 'summariser', task: 'summarise notes.md' },
                },
              },
              'Parent done.',
            ],
          },
        ],
      },
    });
    const model: ModelPort = {
      id: inner.id,
      contextWindow: inner.contextWindow,
      stream: (r, s) => (requests.push(r), inner.stream(r, s)),
    };
    const fs = await workspaceWith({
      'subagents/summariser.md':
        '---\ndescription: Summarises documents\ntools: [read_file]\n---\nYou summarise.\n',
    });
    const harness = createHarness({ model, workspace: fs, disableMemoryHooks: true });
    const { events, end } = await collectRun(harness, { conversation: [], text: 'please delegate' });

    const result = ofType(events, 'agent.tool_result')[0]!;
    expect(result.is_error).toBe(false);
    expect(JSON.stringify(result.content)).toContain('ship on Monday');
    expect(ofType(events, 'agent.message').at(-1)!.content[0]!.text).toBe('Parent done.');
    expect(end.stop_reason).toEqual({ type: 'end_turn' });
    // The child got the spec's prompt and only its allowlisted tool.
    const childRequest = requests.find(
      (r) => r.messages[0]?.role === 'system' && String(r.messages[0].content).includes('You summarise.'),
    )!;
    expect(childRequest.tools?.map((t) => t.name)).toEqual(['read_file']);

    const off = createHarness({ model, workspace: fs, disableSubagents: true, disableMemoryHooks: true });
    requests.length = 0;
    await collectRun(off, { conversation: [], text: 'hello' });
    expect(requests[0]!.tools?.map((t) => t.name)).not.toContain('agent_spawn');
  });

  it("runs a sub-agent on the model its spec names, and on the parent's when it names none", async () => {
    const parent = new ScriptedModel({
      script: {
        turns: [
          {
            match: 'delegate',
            reply: [
              { toolCall: { name: 'agent_spawn', input: { agent_id: 'pinned', task: 'who are you' } } },
              { toolCall: { name: 'agent_spawn', input: { agent_id: 'plain', task: 'who are you' } } },
              'Parent done.',
            ],
          },
          { match: '^who', reply: ['I run on the parent model.'] },
        ],
      },
    });
    const asked: string[] = [];
    const subagentModel = (modelId: string): ModelPort => {
      asked.push(modelId);
      return new ScriptedModel({ script: { turns: [{ reply: [`I run on ${modelId}.`] }] } });
    };
    const fs = await workspaceWith({
      'subagents/pinned.md': '---\ndescription: Pinned\nmodel: openai/small-model\n---\nYou are pinned.\n',
      'subagents/plain.md': '---\ndescription: Plain\n---\nYou are plain.\n',
    });
    const harness = createHarness({ model: parent, subagentModel, workspace: fs, disableMemoryHooks: true });
    const { events } = await collectRun(harness, { conversation: [], text: 'please delegate' });

    const results = ofType(events, 'agent.tool_result').map((r) => JSON.stringify(r.content));
    expect(results[0]).toContain('I run on openai/small-model.');
    expect(results[1]).toContain('I run on the parent model.');
    expect(asked).toEqual(['openai/small-model']);
  });
});
