import { z } from 'zod';
import { rpcSubject, V1 } from '../nats/subject.js';

/** Control's tables that retention trims: finished deployment runs, the audit log, deleted files' rows. */
const CONTROL_RETAINED_TABLES = ['deployment_runs', 'audit_log', 'deleted_files'] as const;
export type ControlRetainedTable = (typeof CONTROL_RETAINED_TABLES)[number];

/** Retention the scheduler times and control performs on the tables it owns. */
export const ControlUpkeepSubjects = {
  /** Deletes up to `limit` rows of `table` older than `cutoff`; the count deleted. */
  purgeExpired: rpcSubject(
    'control.upkeep.purge-expired',
    z.object({
      v: V1,
      table: z.enum(CONTROL_RETAINED_TABLES),
      cutoff: z.iso.datetime({ offset: true }),
      limit: z.number().int().positive(),
    }),
    z.object({ deleted: z.number().int().nonnegative() }),
  ),
} as const;
