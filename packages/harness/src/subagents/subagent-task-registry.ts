import { randomUUID } from 'node:crypto';
import { AppError } from '@agentry/contracts';

export type SubagentTaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface SubagentTaskRecord {
  id: string;
  agentId: string;
  label?: string;
  task: string;
  status: SubagentTaskStatus;
  background: boolean;
  /** The agent_spawn tool call that started it (the thread's parent_tool_use_id). */
  parentToolUseId: string;
  createdAt: Date;
  finishedAt?: Date;
  /** The child's final answer (completed). */
  result?: string;
  /** Why it failed or was cancelled. */
  error?: string;
}

interface Entry {
  record: SubagentTaskRecord;
  controller: AbortController;
  /** Resolves when the record reaches a final status (completion, failure or cancel). */
  finished: Promise<void>;
  markFinished: () => void;
}

export interface StartTaskParams {
  agentId: string;
  task: string;
  label?: string;
  background: boolean;
  parentToolUseId: string;
}

const FINISHED: readonly SubagentTaskStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * The sub-agent tasks of one parent run. The caller owns it (one per session turn runner, say), so
 * nothing about running children lives in module state.
 */
export class SubagentTaskRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => Date;
  private readonly newId: () => string;

  private readonly onChange: ((records: SubagentTaskRecord[]) => void) | undefined;

  constructor(
    options: {
      now?: () => Date;
      idFactory?: () => string;
      onChange?: (records: SubagentTaskRecord[]) => void;
    } = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.newId = options.idFactory ?? (() => `task_${randomUUID().replace(/-/g, '').slice(0, 20)}`);
    this.onChange = options.onChange;
  }

  private changed(): void {
    this.onChange?.(this.list().map((record) => ({ ...record })));
  }

  /**
   * Re-adds records saved by an earlier process (see WorkspaceTaskStore). A task that was still running
   * there cannot be resumed here, so it is marked failed.
   */
  restore(records: readonly SubagentTaskRecord[]): void {
    for (const saved of records) {
      if (this.entries.has(saved.id)) continue;
      const record: SubagentTaskRecord = FINISHED.includes(saved.status)
        ? { ...saved }
        : {
            ...saved,
            status: 'failed',
            finishedAt: this.now(),
            error: 'interrupted: the process running this task stopped',
          };
      this.entries.set(record.id, {
        record,
        controller: new AbortController(),
        finished: Promise.resolve(),
        markFinished: () => {},
      });
    }
    this.changed();
  }

  /** Starts `run` at once; its resolved value becomes the result, a rejection the error. */
  start(
    params: StartTaskParams,
    run: (signal: AbortSignal, taskId: string) => Promise<string>,
  ): SubagentTaskRecord {
    const record: SubagentTaskRecord = {
      id: this.newId(),
      ...params,
      status: 'running',
      createdAt: this.now(),
    };
    const controller = new AbortController();
    let markFinished = (): void => {};
    const finished = new Promise<void>((resolve) => (markFinished = resolve));
    const entry: Entry = { record, controller, finished, markFinished };
    this.entries.set(record.id, entry);
    const finish = (status: SubagentTaskStatus, fields: Partial<SubagentTaskRecord>): void => {
      if (FINISHED.includes(record.status)) return; // a cancel already settled it
      Object.assign(record, { status, finishedAt: this.now(), ...fields });
      markFinished();
      this.changed();
    };
    void Promise.resolve()
      .then(() => run(controller.signal, record.id))
      .then(
        (result) => finish('completed', { result }),
        (error: unknown) =>
          finish('failed', { error: error instanceof Error ? error.message : String(error) }),
      );
    return record;
  }

  get(id: string): SubagentTaskRecord | undefined {
    return this.entries.get(id)?.record;
  }

  list(status?: SubagentTaskStatus): SubagentTaskRecord[] {
    const all = [...this.entries.values()].map((entry) => entry.record);
    return status ? all.filter((record) => record.status === status) : all;
  }

  isFinished(id: string): boolean {
    const record = this.get(id);
    return record !== undefined && FINISHED.includes(record.status);
  }

  /** Aborts a running task. Returns the record, or undefined for an unknown id. */
  cancel(id: string, reason = 'cancelled'): SubagentTaskRecord | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (!FINISHED.includes(entry.record.status)) {
      Object.assign(entry.record, { status: 'cancelled', finishedAt: this.now(), error: reason });
      entry.markFinished();
      entry.controller.abort(new AppError('ABORTED', `Sub-agent task ${id} ${reason}`));
      this.changed();
    }
    return entry.record;
  }

  /** Aborts every unfinished task (e.g. when the parent session is interrupted). */
  cancelAll(reason = 'cancelled'): void {
    for (const id of this.entries.keys()) this.cancel(id, reason);
  }

  /**
   * Waits until the given tasks are finished (all, or any one of them), the timeout passes or the
   * signal aborts. Resolves with the records either way; unknown ids are left out.
   */
  async wait(
    ids: readonly string[],
    options: { all?: boolean; timeoutMs: number; signal?: AbortSignal },
  ): Promise<SubagentTaskRecord[]> {
    const entries = ids
      .map((id) => this.entries.get(id))
      .filter((entry): entry is Entry => entry !== undefined);
    if (entries.length === 0) return [];
    const finished = entries.map((entry) => entry.finished);
    const settled = options.all === false ? Promise.race(finished) : Promise.all(finished);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, options.timeoutMs));
      onAbort = () => resolve();
      if (options.signal?.aborted) resolve();
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([settled, stop]);
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
    return entries.map((entry) => entry.record);
  }
}
