import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { assertBudgetChange } from './session-budget.rules.js';

const limit = (amount: string) => ({
  type: 'limit' as const,
  max_list_cost: { amount, currency: 'USD' as const },
});

describe('session budget changes', () => {
  it('raises, lowers above the spend, and removes a budget set at creation', () => {
    expect(() => assertBudgetChange('sesn_1', limit('1.00'), limit('2.00'), 900_000)).not.toThrow();
    expect(() => assertBudgetChange('sesn_1', limit('1.00'), limit('0.95'), 900_000)).not.toThrow();
    expect(() => assertBudgetChange('sesn_1', limit('1.00'), null, 900_000)).not.toThrow();
  });

  it('refuses to add a budget to a session created without one (budget_create_only)', () => {
    const error = captured(() => assertBudgetChange('sesn_1', null, limit('1.00'), 0));
    expect(error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(error.message).toMatch(/budget_create_only/);
  });

  it('refuses a cap at or below what the session has spent (budget_not_raised)', () => {
    const error = captured(() => assertBudgetChange('sesn_1', limit('1.00'), limit('0.90'), 900_000));
    expect(error.message).toMatch(
      /0\.90 USD is not above the 0\.90 USD the session has already spent \(budget_not_raised\)/,
    );
  });
});

function captured(fn: () => void): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}
