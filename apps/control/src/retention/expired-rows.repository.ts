import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';
import type { ControlRetainedTable } from '@agentry/contracts';

/**
 * Deletes, oldest first and at most `limit` at a time, rows of control's tables past their retention: runs
 * that have finished (a pending or running one is never touched), audit entries, and the rows of files
 * deleted before the cutoff (their content went at deletion).
 */
@Injectable()
export class ExpiredRowsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  purge(table: ControlRetainedTable, cutoff: Date, limit: number): Promise<number> {
    switch (table) {
      case 'deployment_runs':
        return this.db.$executeRaw`
          DELETE FROM deployment_runs WHERE id IN (
            SELECT id FROM deployment_runs
            WHERE status IN ('succeeded', 'failed') AND created_at < ${cutoff}
            ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
      case 'audit_log':
        return this.db.$executeRaw`
          DELETE FROM audit_log WHERE id IN (
            SELECT id FROM audit_log WHERE created_at < ${cutoff}
            ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
      case 'deleted_files':
        return this.db.$executeRaw`
          DELETE FROM files WHERE id IN (
            SELECT id FROM files WHERE deleted_at IS NOT NULL AND deleted_at < ${cutoff}
            ORDER BY deleted_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
    }
  }
}
