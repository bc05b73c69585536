import { createHash } from 'node:crypto';
import type { AppendIdempotency } from '@agentry/contracts';

/**
 * The idempotency of a run's initial events: keyed by the run, so the runner and a later repair of the
 * same run append them to its session at most once, whichever gets there first.
 */
export function runAppendIdempotency(runId: string): AppendIdempotency {
  const hash = createHash('sha256').update(`deployment-run:${runId}`).digest('hex');
  return { keyHash: hash, requestHash: hash };
}
