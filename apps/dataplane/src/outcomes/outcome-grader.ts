import { OutcomeVerdictSchema, type ModelUsage, type OutcomeVerdict } from '@agentry/contracts';
import { renderTranscript, type ChatMessage, type ModelPort } from '@agentry/harness';
import type { OutcomeRecord } from './outcome-record.js';

/** The most of the agent's work the grader reads (its latest part: that is what is being graded). */
const MAX_TRANSCRIPT_CHARS = 60_000;

export interface Grade {
  verdict: Extract<OutcomeVerdict, 'satisfied' | 'needs_revision' | 'failed'>;
  explanation: string;
  usage: ModelUsage;
}

const INSTRUCTIONS = `You are the grader of an agent's work. You receive the outcome the agent was asked to produce, the rubric to grade it against, and the agent's work so far.
Answer with one JSON object and nothing else: {"result": "satisfied" | "needs_revision" | "failed", "explanation": "..."}.
- "satisfied": every criterion of the rubric is met; say why.
- "needs_revision": some criterion is not met; say which and what to change, addressed to the agent.
- "failed": the rubric cannot apply to this work at all; say why.`;

/**
 * One evaluation: a model call with the rubric, through the same model providers the agent uses.
 * The request is a single user message that names the outcome, the cycle and the work, so a scripted
 * grader can answer by matching on it.
 */
export async function gradeOutcome(
  model: ModelPort,
  outcome: OutcomeRecord,
  work: ChatMessage[],
  signal: AbortSignal,
): Promise<Grade> {
  const transcript = renderTranscript(work, { maxBlockChars: 8_000 });
  const request = [
    `OUTCOME EVALUATION ${outcome.outcome_id} iteration ${outcome.iteration} of at most ${outcome.max_iterations}`,
    `<outcome>\n${outcome.description}\n</outcome>`,
    `<rubric>\n${outcome.rubric}\n</rubric>`,
    `<work>\n${transcript.length > MAX_TRANSCRIPT_CHARS ? `...\n${transcript.slice(-MAX_TRANSCRIPT_CHARS)}` : transcript}\n</work>`,
  ].join('\n\n');
  let text = '';
  let usage: ModelUsage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const stream = model.stream(
    {
      messages: [
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: [{ type: 'text', text: request }] },
      ],
    },
    signal,
  );
  for await (const event of stream) {
    if (event.type === 'text_delta') text += event.text;
    if (event.type === 'done') {
      text = event.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('') || text;
      usage = {
        input_tokens: event.usage.inputTokens,
        output_tokens: event.usage.outputTokens,
        cache_creation_input_tokens: event.usage.cacheCreationInputTokens ?? 0,
        cache_read_input_tokens: event.usage.cacheReadInputTokens ?? 0,
      };
    }
  }
  return { ...parseVerdict(text), usage };
}

/**
 * The grader's JSON verdict. A reply that holds none cannot be acted on: it counts as a revision
 * request carrying the reply itself, so the agent sees what the grader said and the iteration budget
 * still bounds the loop.
 */
export function parseVerdict(text: string): Pick<Grade, 'verdict' | 'explanation'> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      const parsed = JSON.parse(text.slice(start, end + 1)) as { result?: unknown; explanation?: unknown };
      const verdict = OutcomeVerdictSchema.safeParse(parsed.result);
      if (
        verdict.success &&
        (verdict.data === 'satisfied' || verdict.data === 'needs_revision' || verdict.data === 'failed')
      ) {
        return {
          verdict: verdict.data,
          explanation: typeof parsed.explanation === 'string' ? parsed.explanation : '',
        };
      }
    } catch {
      // falls through to the unreadable-reply case
    }
  }
  return {
    verdict: 'needs_revision',
    explanation: `The grader gave no verdict in the expected form: ${text.slice(0, 2_000)}`,
  };
}
