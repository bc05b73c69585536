import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import {
  COMPACTION_SYSTEM_PROMPT,
  createHarness,
  ScriptedModel,
  type ModelPort,
  type ModelRequest,
} from '@agentry/harness';
import { MemoryWorkspaceFs } from '@agentry/workspace';
import type { BudgetAdmission, CallEstimate, Reservation } from './budget-admission.service.js';
import { BudgetedModel } from './budgeted-model.js';
import { TurnUsage } from './turn-usage.js';

const OWNER = { tenantId: 'ten_1', namespaceId: 'ns_1', sessionId: 'sesn_1', agentId: 'agent_1' };
const REQUEST: ModelRequest = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello there' }] }],
};

/** Records what the budgets were asked, in order; refuses when told to; applies a cap when told to. */
function fakeAdmission(options: { refuse?: boolean; capped?: boolean } = {}) {
  const log: string[] = [];
  const admission = {
    outputReserveTokens: 64,
    reserve(_owner: unknown, estimate: CallEstimate): Promise<Reservation> {
      log.push(`reserve ${estimate.input_tokens}+${estimate.output_tokens}`);
      if (options.refuse)
        return Promise.reject(
          new AppError('BUDGET_EXCEEDED', 'the budget of 0.01 USD is reached', {
            details: { scope: 'session' },
          }),
        );
      return Promise.resolve({
        id: 'r1',
        owner: OWNER,
        model: estimate.model,
        capped: options.capped ?? false,
        held: true,
      });
    },
    settle(_r: Reservation, usage: { input_tokens: number; output_tokens: number }) {
      log.push(`settle ${usage.input_tokens}+${usage.output_tokens}`);
      return Promise.resolve({ costMicros: 42, totals: null });
    },
    release() {
      log.push('release');
      return Promise.resolve();
    },
  };
  return { admission: admission as unknown as BudgetAdmission, log };
}

function recording(inner: ModelPort): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: inner.id,
    contextWindow: inner.contextWindow,
    requests,
    stream: (req, signal) => (requests.push(req), inner.stream(req, signal)),
  };
}

async function drain(model: ModelPort, request = REQUEST): Promise<void> {
  for await (const event of model.stream(request)) void event;
}

describe('budgeted model port', () => {
  it('reserves before the call and settles with the real usage after it, adding it to the turn', async () => {
    const { admission, log } = fakeAdmission();
    const usage = new TurnUsage();
    const inner = recording(new ScriptedModel());
    await drain(new BudgetedModel(inner, admission, OWNER, usage));
    expect(log).toEqual([expect.stringMatching(/^reserve \d+\+64$/), 'settle 3+6']);
    expect(usage.increments()).toMatchObject({ input_tokens: 3, output_tokens: 6, list_cost_micros: 42 });
    expect(inner.requests[0]!.maxTokens).toBeUndefined();
  });

  it('refuses before anything reaches the model, keeping the refusal and its estimate', async () => {
    const { admission } = fakeAdmission({ refuse: true });
    const inner = recording(new ScriptedModel());
    const model = new BudgetedModel(inner, admission, OWNER, new TurnUsage());
    await expect(drain(model)).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
    expect(inner.requests).toHaveLength(0);
    expect(model.refused).toMatchObject({
      scope: 'session',
      estimate: { model: 'scripted', output_tokens: 64 },
    });
  });

  it('releases the reservation of a call that fails, and caps output to the reservation under a budget', async () => {
    const { admission, log } = fakeAdmission({ capped: true });
    const failing = new ScriptedModel({
      script: { turns: [{ reply: [{ error: { code: 'MODEL_REQUEST_FAILED', times: 5 } }] }] },
    });
    const inner = recording(failing);
    await expect(drain(new BudgetedModel(inner, admission, OWNER, new TurnUsage()))).rejects.toMatchObject({
      code: 'MODEL_REQUEST_FAILED',
    });
    expect(log).toEqual([expect.stringMatching(/^reserve/), 'release']);
    expect(inner.requests[0]!.maxTokens).toBe(64);
  });

  it('meters every call the harness makes through its port: compaction and memory flush as well as the turn', async () => {
    const { admission, log } = fakeAdmission();
    const inner = recording(new ScriptedModel({ contextWindow: 24_000 }));
    const harness = createHarness({
      model: new BudgetedModel(inner, admission, OWNER, new TurnUsage()),
      workspace: new MemoryWorkspaceFs(),
    });
    const long = 'x'.repeat(40_000); // past the compaction threshold (window − 20k reserve)
    const conversation = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: long }] },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'ok' }] },
    ];
    const spans: string[] = [];
    for await (const event of harness.run(
      { conversation, text: 'hello' },
      { sessionId: 'sesn_1', agentId: 'agent_1' },
    )) {
      if (event.type === 'span.model_request_end') spans.push(event.id);
    }
    const system = inner.requests.map((r) => (r.messages[0]?.role === 'system' ? r.messages[0].content : ''));
    expect(system[0]).toBe(COMPACTION_SYSTEM_PROMPT); // compaction, then the turn's own call, then the memory flush
    expect(system[2]).toMatch(/memory extraction/);
    expect(inner.requests).toHaveLength(3);
    expect(spans).toHaveLength(1);
    expect(log.filter((l) => l.startsWith('reserve'))).toHaveLength(inner.requests.length);
    expect(log.filter((l) => l.startsWith('settle'))).toHaveLength(inner.requests.length);
  });
});
