import { AppError } from '@agentry/contracts';
import type {
  ChatMessage,
  ContentBlock,
  ModelPort,
  ModelRequest,
  ModelStreamEvent,
  ToolCall,
} from '../model/model-port.js';
import { abortError, abortableSleep } from '../loop/ports.js';
import { parseScript, type Script, type ScriptStep } from './script-types.js';

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

export interface ScriptedModelOptions {
  /** Model id reported in spans (default "scripted"). */
  id?: string;
  script?: unknown;
  contextWindow?: number;
  /** Sleep used for `delayMs`; inject a fake for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Deterministic token estimate: one token per four characters. */
function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * A deterministic model. Which step to play is derived from the conversation alone (the last user text and
 * the number of assistant messages since it), so any replica continues a session identically.
 * Retries of a failing step are counted by `request.options.attempt` (0-based), which the harness sets.
 */
export class ScriptedModel implements ModelPort {
  readonly id: string;
  readonly contextWindow: number;
  private readonly script: Script | undefined;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: ScriptedModelOptions = {}) {
    this.id = options.id ?? 'scripted';
    this.script = options.script === undefined ? undefined : parseScript(options.script);
    this.contextWindow = options.contextWindow ?? 200_000;
    this.sleep = options.sleep ?? abortableSleep;
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    if (signal?.aborted) throw abortError();
    const step = this.pickStep(request.messages);
    if (step.delayMs) await this.sleep(step.delayMs, signal);
    const attempt = typeof request.options?.attempt === 'number' ? request.options.attempt : 0;
    if (step.error && attempt < (step.error.times ?? 1)) {
      const code = step.error.code;
      const retryable = code === 'MODEL_OVERLOADED' || code === 'MODEL_RATE_LIMITED';
      throw new AppError(code, step.error.message ?? `Scripted ${code}`, { retryable });
    }
    const content: ContentBlock[] = [];
    if (step.thinking) {
      yield { type: 'thinking_delta', text: step.thinking };
      content.push({ type: 'thinking', text: step.thinking });
    }
    const text = fillPlaceholders(step.text ?? step.ask, request);
    if (text !== undefined && text !== '') {
      const size = Math.max(1, this.script?.chunkSize ?? 16);
      for (let i = 0; i < text.length; i += size) {
        if (signal?.aborted) throw abortError();
        yield { type: 'text_delta', text: text.slice(i, i + size) };
      }
      content.push({ type: 'text', text });
    }
    const calls = [...(step.toolCalls ?? []), ...(step.toolCall ? [step.toolCall] : [])];
    const callIndex = request.messages.filter((m) => m.role === 'assistant').length;
    const toolCalls: ToolCall[] = calls.map((c, i) => ({
      id: `toolu_s${callIndex}_${i}`,
      name: c.name,
      input: c.input ?? {},
    }));
    for (const call of toolCalls) {
      yield { type: 'tool_call_start', id: call.id, name: call.name };
      yield { type: 'tool_call_delta', id: call.id, argumentsDelta: JSON.stringify(call.input) };
    }
    const message: AssistantMessage = {
      role: 'assistant',
      content,
      ...(toolCalls.length ? { toolCalls } : {}),
    };
    const outChars =
      (text?.length ?? 0) +
      (step.thinking?.length ?? 0) +
      toolCalls.reduce((n, c) => n + c.name.length + JSON.stringify(c.input).length, 0);
    yield {
      type: 'done',
      message,
      stopReason: toolCalls.length ? 'tool_use' : 'end_turn',
      usage: { inputTokens: estimateTokens(requestChars(request)), outputTokens: estimateTokens(outChars) },
    };
  }

  private pickStep(messages: ChatMessage[]): ScriptStep {
    const lastUser = messages.findLastIndex((m) => m.role === 'user');
    const userText = lastUser >= 0 ? textOf(messages[lastUser]!) : '';
    const sinceUser = messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
    const reply = this.pickReply(messages, userText);
    if (!reply) return sinceUser === 0 ? { text: `You said: ${userText}` } : { text: '' };
    const step = reply[sinceUser];
    if (step === undefined) return { text: '' };
    return typeof step === 'string' ? { text: step } : step;
  }

  private pickReply(
    messages: ChatMessage[],
    userText: string,
  ): ScriptStep[] | (ScriptStep | string)[] | undefined {
    const turns = this.script?.turns ?? [];
    const matched = turns.find((t) => t.match !== undefined && new RegExp(t.match).test(userText));
    if (matched) return matched.reply;
    const ordered = turns.filter((t) => t.match === undefined);
    const userIndex = messages.filter((m) => m.role === 'user').length - 1;
    return ordered[userIndex]?.reply;
  }
}

function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/**
 * A scripted reply can show what the model was given: `{{tools}}` becomes the names of the tools the
 * request offered, `{{tool_results}}` the text of the tool results that answer its previous message,
 * `{{system}}` the system prompt it was sent, `{{user_messages}}` the text of every user message in the
 * conversation it was sent, in order, joined by ` | ` (what history the model was given).
 */
function fillPlaceholders(text: string | undefined, request: ModelRequest): string | undefined {
  if (text === undefined || !text.includes('{{')) return text;
  const lastAssistant = request.messages.findLastIndex((m) => m.role === 'assistant');
  const results = request.messages.slice(lastAssistant + 1).filter((m) => m.role === 'tool');
  return text
    .replaceAll('{{tools}}', (request.tools ?? []).map((t) => t.name).join(', '))
    .replaceAll('{{tool_results}}', results.map(textOf).join('\n'))
    .replaceAll(
      '{{system}}',
      request.messages
        .filter((m) => m.role === 'system')
        .map(textOf)
        .join('\n'),
    )
    .replaceAll(
      '{{user_messages}}',
      request.messages
        .filter((m) => m.role === 'user')
        .map(textOf)
        .join(' | '),
    );
}

function requestChars(request: ModelRequest): number {
  const messages = request.messages.reduce((n, m) => n + textOf(m).length, 0);
  const tools = (request.tools ?? []).reduce((n, t) => n + t.name.length + t.description.length, 0);
  return messages + tools;
}
