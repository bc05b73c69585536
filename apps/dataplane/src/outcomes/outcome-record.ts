import type { OutcomeVerdict } from '@agentry/contracts';

/** States an outcome passes through before its verdict (as CMA names them). */
type OutcomeProgress = 'pending' | 'running' | 'evaluating';

/**
 * One outcome as `sessions.outcome_evaluations` keeps it: the session's `outcome_evaluations[]` entry,
 * plus what the grader needs (the rubric's text, the iteration budget), which the API leaves out.
 */
export interface OutcomeRecord {
  outcome_id: string;
  description: string;
  rubric: string;
  max_iterations: number;
  /** 0-indexed evaluate → revise cycle the outcome is on. */
  iteration: number;
  result: OutcomeProgress | Exclude<OutcomeVerdict, 'needs_revision'>;
  explanation: string | null;
  completed_at: string | null;
}

const OPEN = new Set<string>(['pending', 'running', 'evaluating']);

export function isOpen(record: OutcomeRecord): boolean {
  return OPEN.has(record.result);
}

/**
 * What an evaluation's verdict makes of the outcome. A revision the iteration budget cannot afford
 * becomes `max_iterations_reached`; `needs_revision` moves the outcome to its next cycle.
 */
export function settleVerdict(
  record: OutcomeRecord,
  verdict: OutcomeVerdict,
  explanation: string,
  at: Date,
): { record: OutcomeRecord; verdict: OutcomeVerdict } {
  const final =
    verdict === 'needs_revision' && record.iteration + 1 >= record.max_iterations
      ? 'max_iterations_reached'
      : verdict;
  if (final === 'needs_revision')
    return {
      verdict: final,
      record: { ...record, iteration: record.iteration + 1, result: 'running', explanation },
    };
  return {
    verdict: final,
    record: { ...record, result: final, explanation, completed_at: at.toISOString() },
  };
}
