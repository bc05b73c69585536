import type { StreamedEvent } from '@agentry/sdk';

/** The fields of a streamed event the renderer reads, by event type. */
interface EventData {
  id?: unknown;
  event_id?: unknown;
  delta?: { content?: { text?: unknown } };
  content?: unknown;
  name?: unknown;
  input?: unknown;
  evaluated_permission?: unknown;
  mcp_server_name?: string | null;
  is_error?: unknown;
  result?: unknown;
  tool_use_id?: unknown;
  stop_reason?: { type?: string } | null;
  error?: { message?: string } | null;
  model_usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

/** A content block: text, or another kind shown by its type. */
interface Block {
  type?: unknown;
  text?: unknown;
}

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? (content as Block[])
        .map((block) => (block.type === 'text' ? String(block.text) : `[${String(block.type)}]`))
        .join('')
    : '';

const short = (value: unknown, max = 200): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/**
 * Turns a session's events into terminal lines; token previews are written as they arrive and the
 * final message then only ends the line.
 */
export class EventRenderer {
  private readonly streamed = new Set<string>();
  private midLine = false;

  constructor(private readonly write: (text: string) => void) {}

  render(event: StreamedEvent, options: { echoUser?: boolean } = {}): void {
    const data = event.data as EventData;
    switch (event.type) {
      case 'event_start':
        return;
      case 'event_delta': {
        const id = String(data.event_id);
        if (!this.streamed.has(id)) {
          this.streamed.add(id);
          this.line('agent: ', false);
        }
        const text = data.delta?.content?.text;
        if (typeof text === 'string') this.raw(text);
        return;
      }
      case 'agent.message':
        if (this.streamed.has(String(data.id))) return this.endLine();
        return this.line(`agent: ${textOf(data.content)}`);
      case 'user.message':
        if (options.echoUser !== false) this.line(`user: ${textOf(data.content)}`);
        return;
      case 'agent.thinking':
        return this.line('(thinking)');
      case 'agent.tool_use':
      case 'agent.mcp_tool_use': {
        const ask = data.evaluated_permission === 'ask' ? ' [needs approval]' : '';
        const server = data.mcp_server_name ? `${String(data.mcp_server_name)}/` : '';
        return this.line(
          `tool: ${server}${String(data.name)} ${short(data.input)}${ask} (${String(data.id)})`,
        );
      }
      case 'agent.tool_result':
      case 'agent.mcp_tool_result':
        return this.line(`${data.is_error ? 'tool error' : 'result'}: ${short(textOf(data.content))}`);
      case 'agent.custom_tool_use':
        return this.line(`custom tool: ${String(data.name)} ${short(data.input)} (${String(data.id)})`);
      case 'user.tool_confirmation':
        return this.line(`${data.result === 'allow' ? 'allowed' : 'denied'}: ${String(data.tool_use_id)}`);
      case 'session.status_running':
        return this.line('[running]');
      case 'session.status_idle':
        return this.line(`[idle: ${String(data.stop_reason?.type ?? 'end_turn')}]`);
      case 'session.status_terminated':
        return this.line('[terminated]');
      case 'session.error':
        return this.line(`error: ${String(data.error?.message ?? short(data))}`);
      case 'span.model_request_end': {
        const usage = data.model_usage;
        if (!usage) return;
        return this.line(
          `[usage: ${Number(usage.input_tokens ?? 0)} in, ${Number(usage.output_tokens ?? 0)} out]`,
        );
      }
      default:
        return;
    }
  }

  private line(text: string, newline = true): void {
    this.endLine();
    this.write(newline ? `${text}\n` : text);
    this.midLine = !newline;
  }

  private raw(text: string): void {
    this.write(text);
    this.midLine = true;
  }

  private endLine(): void {
    if (this.midLine) this.write('\n');
    this.midLine = false;
  }
}
