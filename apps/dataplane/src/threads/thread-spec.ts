import type { SessionAgent } from '@agentry/contracts';

/** What a session row a thread runs as carries in `spec.thread`: where it belongs and who it is. */
export interface ThreadLink {
  /** The session the thread belongs to (its budget is charged, its primary stream is told). */
  sessionId: string;
  /** The primary thread of that session: the sender of every delegation. */
  primaryThreadId: string;
  agentName: string;
  /**
   * A background task (sessions_spawn): its answer is kept as a result the primary collects later
   * (sessions_pending_completions, wait_async_results), not sent to the primary's inbox.
   */
  task?: boolean;
  /** The workflow run that started the thread: its end moves the run on. */
  workflowRunId?: string;
}

/** The run-time spec of a session row (see the turn runner), with the thread link when it is one. */
export interface RunSpec {
  agent: SessionAgent;
  environment: { id: string; type: string; config?: Record<string, unknown> };
  thread?: ThreadLink;
}

export function threadLinkOf(spec: unknown): ThreadLink | undefined {
  return (spec as RunSpec | null)?.thread;
}
