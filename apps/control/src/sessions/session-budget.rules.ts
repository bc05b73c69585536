import { AppError, fromMicros, toMicros, type BudgetLimit } from '@agentry/contracts';

/**
 * CMA's rules for changing a session's budget: it is set at creation only (`budget_create_only`), can be
 * removed, and a new cap must stay above what the session has already spent (`budget_not_raised`).
 */
export function assertBudgetChange(
  sessionId: string,
  current: BudgetLimit | null,
  next: BudgetLimit | null,
  spentMicros: number,
): void {
  if (next === null) return;
  if (current === null) {
    throw new AppError(
      'INVALID_REQUEST',
      `budget: session ${sessionId} has no budget, and one can only be set when a session is created (budget_create_only); ` +
        'a budget set at creation can later be raised or removed',
    );
  }
  if (toMicros(next.max_list_cost.amount) <= spentMicros) {
    throw new AppError(
      'INVALID_REQUEST',
      `budget.max_list_cost.amount: ${next.max_list_cost.amount} USD is not above the ${fromMicros(spentMicros)} USD the session has ` +
        'already spent (budget_not_raised); raise it above that or remove the budget',
    );
  }
}
