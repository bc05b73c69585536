import { AppError } from '@agentry/contracts';
import type { WorkspaceFs } from '@agentry/workspace';
import type { PersistedHarnessEvent } from '../loop/harness-events.js';

/** One line of `<sid>.log.jsonl`. */
export interface TranscriptEntry {
  id: string;
  parentId: string | null;
  timestamp: string;
  type: 'message' | 'tool_use' | 'tool_result' | 'compaction' | 'span';
  event: PersistedHarnessEvent;
}

interface SessionIndexEntry {
  sessionId: string;
  agentId: string;
  createdAt: string;
  updatedAt: string;
  entries: number;
}

/**
 * Append-only session log `agents/<agentId>/sessions/<sid>.log.jsonl` plus the `sessions.json` index.
 * Appends are idempotent by event id: re-appending an id already in the log writes nothing.
 */
export class SessionTranscript {
  private known: Set<string> | undefined;
  private lastId: string | null = null;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly agentId: string,
    private readonly sessionId: string,
  ) {}

  get logPath(): string {
    return `${this.dir}/${safe(this.sessionId)}.log.jsonl`;
  }

  get indexPath(): string {
    return `${this.dir}/sessions.json`;
  }

  /** Appends the events whose ids are not yet in the log; returns how many were written. */
  async append(events: PersistedHarnessEvent[], now: Date): Promise<number> {
    const known = await this.loadKnown();
    const lines: string[] = [];
    for (const event of events) {
      if (known.has(event.id)) continue;
      known.add(event.id);
      const entry: TranscriptEntry = {
        id: event.id,
        parentId: this.lastId,
        timestamp: event.created_at,
        type: entryType(event),
        event,
      };
      this.lastId = event.id;
      lines.push(JSON.stringify(entry));
    }
    if (lines.length === 0) return 0;
    await this.fs.appendText(this.logPath, `${lines.join('\n')}\n`);
    await this.touchIndex(known.size, now);
    return lines.length;
  }

  async read(): Promise<TranscriptEntry[]> {
    const text = await readOrEmpty(this.fs, this.logPath);
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as TranscriptEntry);
  }

  private get dir(): string {
    return `agents/${safe(this.agentId)}/sessions`;
  }

  private async loadKnown(): Promise<Set<string>> {
    if (this.known) return this.known;
    const entries = await this.read();
    this.known = new Set(entries.map((e) => e.id));
    this.lastId = entries.at(-1)?.id ?? null;
    return this.known;
  }

  private async touchIndex(entries: number, now: Date): Promise<void> {
    const raw = await readOrEmpty(this.fs, this.indexPath);
    let index: Record<string, SessionIndexEntry> = {};
    try {
      if (raw) index = JSON.parse(raw) as Record<string, SessionIndexEntry>;
    } catch {
      // A corrupt index is rebuilt from this session onwards rather than blocking the log.
    }
    const at = now.toISOString();
    index[this.sessionId] = {
      sessionId: this.sessionId,
      agentId: this.agentId,
      createdAt: index[this.sessionId]?.createdAt ?? at,
      updatedAt: at,
      entries,
    };
    await this.fs.writeText(this.indexPath, `${JSON.stringify(index, null, 2)}\n`);
  }
}

function entryType(event: PersistedHarnessEvent): TranscriptEntry['type'] {
  switch (event.type) {
    case 'agent.tool_use':
    case 'agent.mcp_tool_use':
      return 'tool_use';
    case 'agent.tool_result':
    case 'agent.mcp_tool_result':
      return 'tool_result';
    case 'agent.thread_context_compacted':
      return 'compaction';
    case 'span.model_request_start':
    case 'span.model_request_end':
    case 'session.error':
      return 'span';
    default:
      return 'message';
  }
}

function safe(segment: string): string {
  return segment.replace(/[^A-Za-z0-9._-]/g, '_');
}

async function readOrEmpty(fs: WorkspaceFs, path: string): Promise<string> {
  try {
    return await fs.readText(path);
  } catch (err) {
    if (AppError.is(err, 'NOT_FOUND')) return '';
    throw err;
  }
}
