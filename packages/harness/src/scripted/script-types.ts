import { AppError, ErrorCodeSchema, type ErrorCode } from '@agentry/contracts';

/** A tool call the scripted model emits. */
interface ScriptToolCall {
  name: string;
  input?: Record<string, unknown>;
}

/**
 * One model response. Fields combine: `delayMs` waits first, `error` fails the first `times` attempts,
 * then `thinking`, `text` and `toolCalls` (several = parallel calls) make up the response.
 * `ask` is a text reply that ends the turn with a question to the user. In `text` and `ask`,
 * `{{tools}}` stands for the names of the tools offered and `{{tool_results}}` for the text of the
 * tool results answering the previous model response, `{{user_messages}}` for the user messages the
 * model was sent.
 */
export interface ScriptStep {
  text?: string;
  thinking?: string;
  toolCalls?: ScriptToolCall[];
  /** Shorthand for a single tool call. */
  toolCall?: ScriptToolCall;
  ask?: string;
  delayMs?: number;
  error?: { code: ErrorCode; times?: number; message?: string };
}

interface ScriptTurn {
  /** Regex tested against the last user text. Turns without `match` serve user messages in order. */
  match?: string;
  /** Responses in order: the n-th model call after the user message uses reply[n]. */
  reply: (ScriptStep | string)[];
}

export interface Script {
  turns: ScriptTurn[];
  /** Characters per streamed text delta (default 16). */
  chunkSize?: number;
}

/** Validates a script read from agent config (JSON) and reports the first problem found. */
export function parseScript(value: unknown): Script {
  const bad = (why: string): AppError => new AppError('INVALID_REQUEST', `Invalid model script: ${why}`);
  if (typeof value !== 'object' || value === null || !Array.isArray((value as Script).turns))
    throw bad('expected {turns: [...]}');
  const script = value as Script;
  script.turns.forEach((turn, i) => {
    if (!Array.isArray(turn?.reply)) throw bad(`turns[${i}].reply must be an array`);
    if (turn.match !== undefined) {
      try {
        new RegExp(turn.match);
      } catch {
        throw bad(`turns[${i}].match is not a valid regex`);
      }
    }
    turn.reply.forEach((step, j) => {
      if (typeof step === 'string') return;
      if (step.error && !ErrorCodeSchema.safeParse(step.error.code).success)
        throw bad(`turns[${i}].reply[${j}].error.code is unknown`);
      for (const call of [...(step.toolCalls ?? []), ...(step.toolCall ? [step.toolCall] : [])]) {
        if (typeof call?.name !== 'string')
          throw bad(`turns[${i}].reply[${j}] has a tool call without a name`);
      }
    });
  });
  return script;
}
