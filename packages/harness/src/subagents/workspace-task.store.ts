import type { WorkspaceFs } from '@agentry/workspace';
import { readOptionalText } from '../context/workspace-read.js';
import type { SubagentTaskRecord } from './subagent-task-registry.js';

const safe = (segment: string): string => segment.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Keeps a session's sub-agent task records in `agents/<agentId>/tasks/<sessionId>.json`, so task_list and
 * task_output still answer after a restart or on another replica. Pass `save` as the registry's
 * onChange and `load()` into `restore()`.
 */
export class WorkspaceTaskStore {
  readonly path: string;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly fs: WorkspaceFs,
    agentId: string,
    sessionId: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.path = `agents/${safe(agentId)}/tasks/${safe(sessionId)}.json`;
  }

  /** Writes are queued so an older snapshot never lands after a newer one. */
  save = (records: SubagentTaskRecord[]): Promise<void> => {
    const text = `${JSON.stringify({ tasks: records }, null, 2)}\n`;
    this.queue = this.queue
      .then(() => this.fs.writeText(this.path, text))
      .then(() => undefined, this.onError);
    return this.queue;
  };

  async load(): Promise<SubagentTaskRecord[]> {
    const text = await readOptionalText(this.fs, this.path);
    if (text === null) return [];
    const parsed = JSON.parse(text) as {
      tasks?: (SubagentTaskRecord & { createdAt: string; finishedAt?: string })[];
    };
    return (parsed.tasks ?? []).map((task) => {
      const record: SubagentTaskRecord = { ...task, createdAt: new Date(task.createdAt) };
      if (task.finishedAt !== undefined) record.finishedAt = new Date(task.finishedAt);
      return record;
    });
  }

  /** Resolves once every queued write has finished. */
  flushed(): Promise<void> {
    return this.queue;
  }
}
