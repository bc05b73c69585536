import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { collectRun, workspaceWith } from '../loop/run-collect.fixture.js';
import { isPersistedEvent, type PersistedHarnessEvent } from '../loop/harness-events.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import { SessionTranscript } from './session-transcript.js';

const LOG = 'agents/agent_1/sessions/sess_1.log.jsonl';
const INDEX = 'agents/agent_1/sessions/sessions.json';

function message(id: string, text: string): PersistedHarnessEvent {
  return {
    type: 'agent.message',
    id,
    created_at: '2026-01-01T00:00:00.000Z',
    content: [{ type: 'text', text }],
  };
}

describe('SessionTranscript', () => {
  it('appends once per event id, across writer instances', async () => {
    const fs = await workspaceWith();
    const writer = new SessionTranscript(fs, 'agent_1', 'sess_1');
    expect(await writer.append([message('sevt_1', 'a'), message('sevt_2', 'b')], new Date(0))).toBe(2);
    expect(await writer.append([message('sevt_2', 'b'), message('sevt_3', 'c')], new Date(1))).toBe(1);
    const fresh = new SessionTranscript(fs, 'agent_1', 'sess_1');
    expect(await fresh.append([message('sevt_1', 'a'), message('sevt_3', 'c')], new Date(2))).toBe(0);
    const entries = await fresh.read();
    expect(entries.map((e) => e.id)).toEqual(['sevt_1', 'sevt_2', 'sevt_3']);
    expect(entries.map((e) => e.parentId)).toEqual([null, 'sevt_1', 'sevt_2']);
    const index = JSON.parse(await fs.readText(INDEX)) as Record<
      string,
      { entries: number; agentId: string }
    >;
    expect(index.sess_1).toMatchObject({ entries: 3, agentId: 'agent_1' });
  });

  it('the harness logs every persisted event of a run, and nothing with disableSessionPersistence', async () => {
    const fs = await workspaceWith({ 'a.txt': 'x' });
    const script = {
      turns: [{ reply: [{ toolCall: { name: 'read_file', input: { path: 'a.txt' } } }, 'read it'] }],
    };
    const harness = createHarness({ model: new ScriptedModel({ script }), workspace: fs });
    const { events } = await collectRun(harness, { conversation: [], text: 'read' });
    const persisted = events.filter(isPersistedEvent).map((e) => e.id);
    const logged = (await new SessionTranscript(fs, 'agent_1', 'sess_1').read()).map((e) => e.id);
    expect(logged).toEqual(persisted);
    expect(logged.length).toBeGreaterThanOrEqual(6);

    const quiet = await workspaceWith();
    const off = createHarness({
      model: new ScriptedModel(),
      workspace: quiet,
      disableSessionPersistence: true,
    });
    await collectRun(off, { conversation: [], text: 'hello' });
    expect(await quiet.exists(LOG)).toBe(false);
    expect(await quiet.exists(INDEX)).toBe(false);
  });
});
