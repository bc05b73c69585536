import type { SessionEvent } from './use-session-events';

export interface Span {
  lane: string;
  label: string;
  start: number;
  end: number;
  failed: boolean;
}

const time = (e: SessionEvent | undefined) => (e?.created_at ? Date.parse(e.created_at) : NaN);

/** Model requests and tool calls as spans, one lane per thread (the session itself is `main`). */
export function spansOf(events: SessionEvent[]): Span[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const spans: Span[] = [];
  for (const event of events) {
    const lane = event.session_thread_id ? `thread ${String(event.session_thread_id).slice(-8)}` : 'main';
    if (event.type === 'span.model_request_end') {
      const start = byId.get(String(event.model_request_start_id));
      spans.push({
        lane,
        label: 'model request',
        start: time(start),
        end: time(event),
        failed: Boolean(event.is_error),
      });
    }
    if (event.type === 'agent.tool_result' || event.type === 'agent.mcp_tool_result') {
      const use = byId.get(String(event.tool_use_id ?? event.mcp_tool_use_id));
      if (use)
        spans.push({
          lane,
          label: String(use.name),
          start: time(use),
          end: time(event),
          failed: Boolean(event.is_error),
        });
    }
  }
  return spans.filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end));
}

export interface ToolStats {
  name: string;
  calls: number;
  failures: number;
  medianMs: number | null;
}

/** Per tool: how often it was called, how often it failed, and its median duration. */
export function toolStatsOf(events: SessionEvent[]): ToolStats[] {
  const stats = new Map<string, { calls: number; failures: number; durations: number[] }>();
  for (const span of spansOf(events)) {
    if (span.label === 'model request') continue;
    const entry = stats.get(span.label) ?? { calls: 0, failures: 0, durations: [] };
    entry.calls += 1;
    if (span.failed) entry.failures += 1;
    entry.durations.push(span.end - span.start);
    stats.set(span.label, entry);
  }
  for (const event of events) {
    if (
      (event.type === 'agent.tool_use' || event.type === 'agent.mcp_tool_use') &&
      !stats.has(String(event.name))
    )
      stats.set(String(event.name), { calls: 1, failures: 0, durations: [] });
  }
  return [...stats.entries()].map(([name, s]) => ({
    name,
    calls: s.calls,
    failures: s.failures,
    medianMs: median(s.durations),
  }));
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Tool calls waiting for a decision: asked for, with no confirmation yet. */
export function pendingApprovals(events: SessionEvent[]): SessionEvent[] {
  const decided = new Set(
    events.filter((e) => e.type === 'user.tool_confirmation').map((e) => String(e.tool_use_id)),
  );
  const lastIdle = [...events].reverse().find((e) => e.type === 'session.status_idle');
  const asked = new Set<string>(
    lastIdle?.stop_reason?.type === 'requires_action' ? lastIdle.stop_reason.event_ids : [],
  );
  return events.filter((e) => asked.has(e.id) && !decided.has(e.id));
}
