import type { ContentBlock } from '@agentry/harness';

type Payload = Record<string, unknown>;

/**
 * How outcome events read in the agent's conversation, rebuilt from the log by any replica: the
 * definition is the task (the agent begins work on receipt), and a verdict that asks for more is the
 * grader's feedback for the next cycle. Other outcome events are not the model's business.
 */
export function outcomeMessage(type: string, payload: Payload): ContentBlock[] | null {
  if (type === 'user.define_outcome') {
    const rubric = (payload.rubric as { content?: unknown } | undefined)?.content;
    const text = `[outcome] ${String(payload.description)}${typeof rubric === 'string' ? `\n\nYour work will be graded against this rubric:\n${rubric}` : ''}`;
    return [{ type: 'text', text }];
  }
  if (type !== 'span.outcome_evaluation_end') return null;
  const evaluation = `Evaluation ${Number(payload.iteration) + 1}`;
  if (payload.result === 'needs_revision')
    return [
      {
        type: 'text',
        text: `[outcome grader] ${evaluation}: the outcome is not met yet.\n${String(payload.explanation)}\nRevise your work so it meets the rubric.`,
      },
    ];
  if (payload.result === 'max_iterations_reached')
    return [
      {
        type: 'text',
        text: `[outcome grader] ${evaluation}: the outcome is still not met and no evaluation follows.\n${String(payload.explanation)}\nTell the user where the work stands.`,
      },
    ];
  return null;
}
