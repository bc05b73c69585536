import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '@agentry/harness';
import { gradeOutcome, parseVerdict } from './outcome-grader.js';
import { outcomeMessage } from './outcome-messages.js';
import { settleVerdict, type OutcomeRecord } from './outcome-record.js';

const outcome: OutcomeRecord = {
  outcome_id: 'outc_1',
  description: 'A haiku',
  rubric: 'Three lines',
  max_iterations: 2,
  iteration: 0,
  result: 'evaluating',
  explanation: null,
  completed_at: null,
};
const at = new Date('2026-12-01T00:00:00Z');

describe('outcome verdicts', () => {
  it('reads the JSON verdict out of a chatty reply', () => {
    expect(parseVerdict('Here: {"result": "satisfied", "explanation": "all met"} done')).toEqual({
      verdict: 'satisfied',
      explanation: 'all met',
    });
  });

  it('takes a reply without a verdict as a revision request that quotes it', () => {
    expect(parseVerdict('looks fine to me')).toEqual({
      verdict: 'needs_revision',
      explanation: expect.stringContaining('looks fine to me') as unknown,
    });
    expect(parseVerdict('{"result": "maybe"}').verdict).toBe('needs_revision');
  });

  it('moves a revision to the next cycle while the budget lasts, then ends with max_iterations_reached', () => {
    const first = settleVerdict(outcome, 'needs_revision', 'no', at);
    expect(first).toEqual({
      verdict: 'needs_revision',
      record: { ...outcome, iteration: 1, result: 'running', explanation: 'no' },
    });
    const last = settleVerdict(first.record, 'needs_revision', 'still no', at);
    expect(last).toEqual({
      verdict: 'max_iterations_reached',
      record: {
        ...first.record,
        result: 'max_iterations_reached',
        explanation: 'still no',
        completed_at: at.toISOString(),
      },
    });
    expect(settleVerdict(outcome, 'satisfied', 'yes', at).record).toMatchObject({
      iteration: 0,
      result: 'satisfied',
      completed_at: at.toISOString(),
    });
  });

  it('gives the agent the task and the feedback that asks for more, nothing else', () => {
    expect(
      outcomeMessage('user.define_outcome', {
        description: 'A haiku',
        rubric: { type: 'text', content: 'Three lines' },
      })?.[0],
    ).toEqual({
      type: 'text',
      text: '[outcome] A haiku\n\nYour work will be graded against this rubric:\nThree lines',
    });
    expect(
      JSON.stringify(
        outcomeMessage('span.outcome_evaluation_end', {
          result: 'needs_revision',
          iteration: 0,
          explanation: 'add waves',
        }),
      ),
    ).toContain('add waves');
    expect(
      outcomeMessage('span.outcome_evaluation_end', { result: 'satisfied', iteration: 0, explanation: 'ok' }),
    ).toBeNull();
    expect(outcomeMessage('span.outcome_evaluation_start', { iteration: 0 })).toBeNull();
  });

  it('asks the grader through a model port with the outcome, rubric and work in one message, and reports its usage', async () => {
    const model = new ScriptedModel({
      script: {
        turns: [
          {
            match: '^OUTCOME EVALUATION outc_1 iteration 0[\\s\\S]*Three lines[\\s\\S]*salt wind',
            reply: ['{"result":"failed","explanation":"not a poem"}'],
          },
        ],
      },
    });
    const grade = await gradeOutcome(
      model,
      outcome,
      [{ role: 'assistant', content: [{ type: 'text', text: 'salt wind' }] }],
      new AbortController().signal,
    );
    expect(grade).toMatchObject({ verdict: 'failed', explanation: 'not a poem' });
    expect(grade.usage.input_tokens).toBeGreaterThan(0);
  });
});
