import { Injectable } from '@nestjs/common';
import { SqlPool } from '../sql/sql-pool.js';
import type { SessionAccount } from './turn-budget.js';

/** The session row's budget and usage totals, as a turn starts. */
@Injectable()
export class SessionAccounts {
  constructor(private readonly sql: SqlPool) {}

  async account(sessionId: string): Promise<SessionAccount> {
    const rows = await this.sql.query<SessionAccount>(
      'budgets.account',
      'SELECT budget, usage FROM sessions WHERE id = $1',
      [sessionId],
    );
    return rows.rows[0] ?? { budget: null, usage: {} };
  }
}
