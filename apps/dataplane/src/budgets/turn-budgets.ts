import { Injectable } from '@nestjs/common';
import { BudgetAdmission } from './budget-admission.service.js';
import { SessionAccounts } from './session-accounts.repository.js';
import { TurnBudget, type SessionAccount } from './turn-budget.js';
import type { UsageOwner } from './usage-ledger.repository.js';

/** Opens each turn's side of the budgets: its metered model port and what it writes as it ends. */
@Injectable()
export class TurnBudgets {
  constructor(
    private readonly admission: BudgetAdmission,
    private readonly accounts: SessionAccounts,
  ) {}

  /**
   * `account`: the paying session's budget and usage as the lease read them, when the turn's own session
   * pays; a thread's calls are charged to its session, whose account is read here.
   */
  async open(owner: UsageOwner, account: SessionAccount | null): Promise<TurnBudget> {
    return new TurnBudget(this.admission, owner, account ?? (await this.accounts.account(owner.sessionId)));
  }
}
