import type { Clock } from '../loop/ports.js';
import type { ToolOutcome } from '../tools/tool.js';
import type { ToolExecutor, ToolInvocation } from '../tools/tool-executor.js';

/** The eventual result of a tool that outlived its offload timeout. */
export interface OffloadedResult {
  taskId: string;
  sessionId: string;
  toolUseId: string;
  toolName: string;
  outcome: ToolOutcome;
  finishedAt: Date;
}

interface RunningTask {
  sessionId: string;
  done: Promise<void>;
  cancel: AbortController;
}

/**
 * Races a tool against its offload timeout. A tool still running when the timer fires gets a placeholder
 * result; its real outcome is kept here (per harness instance, never global) until a later run or
 * `pendingResults()` collects it.
 */
export class OffloadManager {
  private readonly running = new Map<string, RunningTask>();
  private readonly finished: OffloadedResult[] = [];

  constructor(private readonly clock: Clock) {}

  async run(
    executor: ToolExecutor,
    invocation: ToolInvocation,
    timeoutMs: number | undefined,
  ): Promise<ToolOutcome> {
    if (timeoutMs === undefined || timeoutMs <= 0) return executor.execute(invocation);
    const cancel = new AbortController();
    const signal = AbortSignal.any([invocation.context.signal, cancel.signal]);
    const work = executor.execute({ ...invocation, context: { ...invocation.context, signal } });
    const timer = new AbortController();
    const timedOut = this.clock.sleep(timeoutMs, timer.signal).then(
      () => 'timeout' as const,
      () => 'cancelled' as const,
    );
    const first = await Promise.race([work.then((outcome) => ({ outcome })), timedOut]);
    if (typeof first === 'object') {
      timer.abort();
      return first.outcome;
    }
    const { toolCallId: toolUseId, sessionId } = invocation.context;
    const taskId = `task_${toolUseId.replace(/^sevt_/, '')}`;
    const done = work.then(
      (outcome) => this.finish(taskId, sessionId, toolUseId, invocation.tool.name, outcome),
      (err: unknown) =>
        this.finish(taskId, sessionId, toolUseId, invocation.tool.name, {
          status: 'error',
          content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }],
          reason: 'tool_failed',
        }),
    );
    this.running.set(taskId, { sessionId, done, cancel });
    return {
      status: 'ok',
      content: [
        {
          type: 'text',
          text: `Tool ${invocation.tool.name} is still running in the background (task id ${taskId}). Its result will be delivered in a later turn.`,
        },
      ],
    };
  }

  /** Takes (and forgets) the finished results, optionally only those of one session. */
  pendingResults(sessionId?: string): OffloadedResult[] {
    const taken = this.finished.filter((r) => sessionId === undefined || r.sessionId === sessionId);
    for (const r of taken) this.finished.splice(this.finished.indexOf(r), 1);
    return taken;
  }

  runningTaskIds(sessionId?: string): string[] {
    return [...this.running.entries()]
      .filter(([, t]) => sessionId === undefined || t.sessionId === sessionId)
      .map(([id]) => id);
  }

  /** Resolves when every task running now has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.running.values()].map((t) => t.done));
  }

  cancel(taskId: string): boolean {
    const task = this.running.get(taskId);
    task?.cancel.abort();
    return task !== undefined;
  }

  private finish(
    taskId: string,
    sessionId: string,
    toolUseId: string,
    toolName: string,
    outcome: ToolOutcome,
  ): void {
    this.running.delete(taskId);
    this.finished.push({ taskId, sessionId, toolUseId, toolName, outcome, finishedAt: this.clock.now() });
  }
}
