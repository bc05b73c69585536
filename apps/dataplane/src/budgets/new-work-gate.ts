import { Injectable } from '@nestjs/common';
import { AppError, type Actor, type InboundEvent } from '@agentry/contracts';
import { BudgetAdmission } from './budget-admission.service.js';

/** Events that settle work already under way; CMA accepts them at a budget cap. */
const SETTLE_EVENTS = new Set([
  'user.interrupt',
  'user.tool_confirmation',
  'user.tool_result',
  'user.custom_tool_result',
  'user.mcp_elicitation_response',
]);

/**
 * At a budget cap a session accepts only settle events (CMA): a batch that brings new work (a user
 * message, an outcome, a system message) is refused with a 400 that says which cap and how to lift it.
 */
@Injectable()
export class NewWorkGate {
  constructor(private readonly admission: BudgetAdmission) {}

  /**
   * What the append checks in its own statement for a batch that brings new work: no refusal of this
   * session and none in the tenant since `since`. Only when one exists does the append stop and
   * `assertAccepts` judge it (a raised budget or quota lets the work in). Null for settle-only batches.
   */
  admitsUnrefused(events: InboundEvent[]): { since: Date } | null {
    if (events.every((e) => SETTLE_EVENTS.has(e.type))) return null;
    return { since: this.admission.refusalsSince() };
  }

  async assertAccepts(actor: Actor, sessionId: string, events: InboundEvent[]): Promise<void> {
    if (events.every((e) => SETTLE_EVENTS.has(e.type))) return;
    // Only refusals of this tenant and namespace are looked at: someone else's session stays a 404.
    const refusal = await this.admission.refusalOfNewWork({
      tenantId: actor.tenantId,
      namespaceId: actor.namespaceId,
      sessionId,
      agentId: '',
    });
    if (refusal) {
      throw new AppError(
        'BUDGET_EXCEEDED',
        `${refusal.message} Until then the session accepts only tool confirmations, tool results and interrupts.`,
        { details: { scope: refusal.scope } },
      );
    }
  }
}
