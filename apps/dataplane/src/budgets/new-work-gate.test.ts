import { describe, expect, it } from 'vitest';
import type { Actor, InboundEvent } from '@agentry/contracts';
import type { BudgetAdmission, BudgetRefusal } from './budget-admission.service.js';
import { NewWorkGate } from './new-work-gate.js';

const ACTOR: Actor = {
  tenantId: 'ten_1',
  namespaceId: 'ns_1',
  userId: 'user_1',
  apiKeyId: null,
  role: 'admin',
};
const message: InboundEvent = { type: 'user.message', content: [{ type: 'text', text: 'more' }] };
const settle: InboundEvent[] = [
  { type: 'user.interrupt' },
  { type: 'user.tool_confirmation', tool_use_id: 'sevt_1', result: 'allow' },
  { type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_2', content: [] },
] as InboundEvent[];

function gateRefusing(refusal: BudgetRefusal | null) {
  const asked: string[] = [];
  const admission = {
    refusalOfNewWork(owner: { sessionId: string }) {
      asked.push(owner.sessionId);
      return Promise.resolve(refusal);
    },
  };
  return { gate: new NewWorkGate(admission as unknown as BudgetAdmission), asked };
}

describe('new work at a budget cap', () => {
  it('lets settle events through without asking the budgets', async () => {
    const { gate, asked } = gateRefusing({
      scope: 'session',
      message: "The session's budget of 0.25 USD is reached.",
    });
    await expect(gate.assertAccepts(ACTOR, 'sesn_1', settle)).resolves.toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('refuses a batch with a user message with a 400 that says why and what is still accepted', async () => {
    const { gate } = gateRefusing({
      scope: 'session',
      message: "The session's budget of 0.25 USD is reached.",
    });
    const error = await gate.assertAccepts(ACTOR, 'sesn_1', [settle[0]!, message]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { scope: 'session' } });
    expect((error as Error).message).toMatch(
      /budget of 0\.25 USD is reached\. Until then the session accepts only tool confirmations, tool results and interrupts/,
    );
  });

  it('accepts new work when no cap refuses it', async () => {
    const { gate, asked } = gateRefusing(null);
    await expect(gate.assertAccepts(ACTOR, 'sesn_1', [message])).resolves.toBeUndefined();
    expect(asked).toEqual(['sesn_1']);
  });
});
