import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { collectRun, ofType, workspaceWith } from '../loop/run-collect.fixture.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import { customTool } from './custom-tool.js';

const lookup = customTool({
  name: 'lookup',
  description: 'the client looks it up',
  inputSchema: { type: 'object' },
});

describe('customTool', () => {
  it('is offered, recorded as agent.custom_tool_use, waits for the client even under always_ask, and resumes with its result', async () => {
    const script = {
      turns: [
        {
          reply: [
            { text: 'offered {{tools}}', toolCall: { name: 'lookup', input: { q: 'x' } } },
            'got {{tool_results}}',
          ],
        },
      ],
    };
    const options = {
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [lookup],
      permissions: { toolsets: { builtin: 'always_ask' as const } },
    };
    const first = await collectRun(createHarness(options), { conversation: [], text: 'go' });
    const use = ofType(first.events, 'agent.custom_tool_use')[0]!;
    expect(use).toMatchObject({ name: 'lookup', input: { q: 'x' } });
    expect(ofType(first.events, 'agent.tool_use')).toHaveLength(0);
    expect(ofType(first.events, 'agent.message')[0]!.content[0]!.text).toContain('lookup');
    expect(first.end.stop_reason).toEqual({ type: 'requires_action', tool_use_ids: [use.id] });

    const second = await collectRun(createHarness(options), {
      conversation: first.end.conversation,
      toolResults: { [use.id]: { content: 'found it' } },
    });
    expect(ofType(second.events, 'agent.message')[0]!.content[0]!.text).toBe('got found it');
    expect(second.end.stop_reason).toEqual({ type: 'end_turn' });
  });
});
