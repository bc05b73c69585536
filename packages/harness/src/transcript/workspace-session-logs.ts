import type { WorkspaceFs } from '@agentry/workspace';
import { listFilePaths, readOptionalText } from '../context/workspace-read.js';
import type { PersistedHarnessEvent } from '../loop/harness-events.js';
import { collectText } from '../memory/collect-text.js';
import type { SessionLogLine, SessionLogStore } from './session-log-store.js';
import { SessionTranscript } from './session-transcript.js';

/**
 * The seed's session logs: `agents/<agentId>/sessions/<sid>.log.jsonl` plus the `sessions.json` index
 * in the workspace. The default store of an embedded harness.
 */
export class WorkspaceSessionLogs implements SessionLogStore {
  private readonly transcripts = new Map<string, SessionTranscript>();

  constructor(private readonly fs: WorkspaceFs) {}

  async append(
    run: { agentId: string; sessionId: string },
    events: PersistedHarnessEvent[],
    now: Date,
  ): Promise<void> {
    const key = `${run.agentId}\u0000${run.sessionId}`;
    let transcript = this.transcripts.get(key);
    if (!transcript)
      this.transcripts.set(key, (transcript = new SessionTranscript(this.fs, run.agentId, run.sessionId)));
    await transcript.append(events, now);
  }

  async lines(agentId: string): Promise<SessionLogLine[]> {
    const dir = `agents/${agentId}/sessions`;
    const lines: SessionLogLine[] = [];
    for (const path of (await listFilePaths(this.fs, dir, false)).filter((p) => p.endsWith('.log.jsonl'))) {
      const sessionId = path.slice(dir.length + 1, -'.log.jsonl'.length);
      ((await readOptionalText(this.fs, path)) ?? '').split('\n').forEach((raw, index) => {
        if (raw.trim() === '') return;
        let entry: { type?: unknown; event?: { type?: unknown } };
        try {
          entry = JSON.parse(raw) as typeof entry;
        } catch {
          return; // a torn last line of a crashed append
        }
        const parts: string[] = [];
        collectText(entry.event ?? entry, parts);
        const kind: unknown = entry.event?.type ?? entry.type ?? 'entry';
        lines.push({ path: sessionId, line: index + 1, text: parts.join(' '), kind: String(kind) });
      });
    }
    return lines;
  }
}
