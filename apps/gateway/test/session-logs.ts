import type Anthropic from '@anthropic-ai/sdk';

/** A session event as the events list returns it, read loosely. */
export type LoggedEvent = { id: string; type: string } & Record<string, unknown>;

/** A session's whole log (its primary thread), through the official SDK. */
export async function sessionHistory(client: Anthropic, sessionId: string): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
    all.push(event as unknown as LoggedEvent);
  return all;
}

/** One thread's log of a session, through the official SDK. */
export async function threadHistory(
  client: Anthropic,
  sessionId: string,
  threadId: string,
): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  for await (const event of client.beta.sessions.threads.events.list(threadId, {
    session_id: sessionId,
    limit: 1000,
  }))
    all.push(event as unknown as LoggedEvent);
  return all;
}

/** What the model calls of a log used, as their `span.model_request_end` events say. */
export function sumModelUsage(log: LoggedEvent[], key: 'input_tokens' | 'output_tokens'): number {
  return log
    .filter((e) => e.type === 'span.model_request_end')
    .reduce((sum, e) => sum + Number((e.model_usage as Record<string, number> | undefined)?.[key] ?? 0), 0);
}
