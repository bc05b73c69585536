import { streamSessionEvents } from '@agentry/sdk';
import { useEffect, useState } from 'react';
import { baseUrl } from '../../api/use-api';

/** An event of the session's log; the fields named are the ones the console reads, by event type. */
export interface SessionEvent {
  id: string;
  type: string;
  created_at?: string;
  processed_at?: string | null;
  seq: number;
  session_thread_id?: string | null;
  content?: unknown;
  name?: string;
  input?: unknown;
  is_error?: boolean;
  mcp_server_name?: string;
  tool_use_id?: string;
  mcp_tool_use_id?: string;
  model_request_start_id?: string;
  evaluated_permission?: string;
  result?: string;
  deny_message?: string | null;
  error?: { type?: string; message?: string } | null;
  stop_reason?: { type?: string; event_ids?: string[] } | null;
  [field: string]: unknown;
}

/** A token preview: the text added to a message still being written. */
interface EventDelta {
  event_id?: unknown;
  delta?: { content?: { text?: unknown } };
}

export interface SessionFeed {
  events: SessionEvent[];
  /** Text of messages still being written, by event id (token previews). */
  drafts: Record<string, string>;
  /** Token previews received so far: the answer arrived streamed, not only as the final event. */
  deltas: number;
  connected: boolean;
  error: string | null;
}

/**
 * Every event of a session from the first, then live, with token previews; the helper resumes with
 * Last-Event-ID after a disconnect, so the list has no gap and no duplicate.
 */
export function useSessionEvents(sessionId: string, headers: Record<string, string>): SessionFeed {
  const [feed, setFeed] = useState<SessionFeed>({
    events: [],
    drafts: {},
    deltas: 0,
    connected: false,
    error: null,
  });
  useEffect(() => {
    const controller = new AbortController();
    setFeed({ events: [], drafts: {}, deltas: 0, connected: false, error: null });
    const run = async () => {
      for await (const event of streamSessionEvents({
        baseUrl: baseUrl(),
        path: `/v1/sessions/${sessionId}/events/stream?event_deltas[]=agent.message`,
        headers,
        lastEventId: 0,
        signal: controller.signal,
        onReconnect: () => setFeed((f) => ({ ...f, connected: false })),
      })) {
        setFeed((f) => apply({ ...f, connected: true, error: null }, event.type, event.data, event.seq));
      }
    };
    run().catch((error: unknown) => {
      if (!controller.signal.aborted) setFeed((f) => ({ ...f, error: (error as Error).message }));
    });
    return () => controller.abort();
  }, [sessionId, headers]);
  return feed;
}

function apply(
  feed: SessionFeed,
  type: string,
  data: Record<string, unknown>,
  seq: number | null,
): SessionFeed {
  if (type === 'event_start') return feed;
  if (type === 'event_delta') {
    const delta = data as EventDelta;
    const id = String(delta.event_id);
    const text = delta.delta?.content?.text;
    if (typeof text !== 'string') return feed;
    return {
      ...feed,
      deltas: feed.deltas + 1,
      drafts: { ...feed.drafts, [id]: (feed.drafts[id] ?? '') + text },
    };
  }
  if (seq === null || feed.events.some((e) => e.seq === seq)) return feed;
  const { [String(data.id)]: _done, ...drafts } = feed.drafts;
  return { ...feed, drafts, events: [...feed.events, { ...(data as SessionEvent), seq }] };
}

export const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .map((b: { type: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}]`))
        .join('')
    : '';
