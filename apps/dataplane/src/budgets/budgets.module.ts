import { Global, Module } from '@nestjs/common';
import { BudgetAdmission } from './budget-admission.service.js';
import { NewWorkGate } from './new-work-gate.js';
import { SessionAccounts } from './session-accounts.repository.js';
import { UsageLedgerRepository } from './usage-ledger.repository.js';
import { UsageQueryService } from './usage-query.service.js';
import { UsageHandler } from './usage.handler.js';

/** Budgets, quotas and the usage ledger; global because the inbox (events) and the turn runner both ask them. */
@Global()
@Module({
  controllers: [UsageHandler],
  providers: [BudgetAdmission, UsageLedgerRepository, SessionAccounts, NewWorkGate, UsageQueryService],
  exports: [BudgetAdmission, SessionAccounts, NewWorkGate],
})
export class BudgetsModule {}
