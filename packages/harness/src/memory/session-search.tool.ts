import type { WorkspaceFs } from '@agentry/workspace';
import type { HarnessTool, ToolOutcome } from '../tools/tool.js';
import { listFilePaths, readOptionalText } from '../context/workspace-read.js';
import { rankLines, tokenize, type SearchLine } from './keyword-search.js';

const ok = (text: string): ToolOutcome => ({ status: 'ok', content: [{ type: 'text', text }] });

/** Bookkeeping fields of a transcript line that carry no conversation content. */
const SKIPPED_KEYS = new Set([
  'id',
  'type',
  'parentId',
  'timestamp',
  'created_at',
  'session_id',
  'tool_use_id',
  'signature',
  'processed_at',
]);

function collectText(value: unknown, out: string[], key = ''): void {
  if (SKIPPED_KEYS.has(key)) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectText(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectText(v, out, k);
  }
}

function snippet(text: string, query: string, width = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const at = Math.max(
    0,
    ...tokenize(query)
      .map((term) => lower.indexOf(term))
      .filter((i) => i >= 0)
      .slice(0, 1),
  );
  const start = Math.max(0, at - Math.floor(width / 3));
  return `${start > 0 ? '…' : ''}${flat.slice(start, start + width)}${start + width < flat.length ? '…' : ''}`;
}

/**
 * session_search: ranked keyword search over an agent's full session logs
 * (`agents/<agentId>/sessions/*.log.jsonl`, never compacted), so facts from compacted-away or earlier
 * sessions can be found again.
 */
export function createSessionSearchTool(fs: WorkspaceFs): HarnessTool {
  return {
    name: 'session_search',
    description:
      "Search this agent's past session logs (including parts compacted out of the context) by keywords.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        agentId: { type: 'string', description: "Whose sessions to search (default: this agent's)." },
        maxResults: { type: 'number', description: 'Default 10.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    idempotent: true,
    toolset: 'builtin',
    defaultPermission: 'always_allow',
    async execute(input, context) {
      const query = typeof input.query === 'string' ? input.query : '';
      const agentId = (
        typeof input.agentId === 'string' && input.agentId !== '' ? input.agentId : context.agentId
      ).replace(/[^A-Za-z0-9._-]/g, '_');
      const limit =
        typeof input.maxResults === 'number' && input.maxResults > 0
          ? Math.min(50, Math.floor(input.maxResults))
          : 10;
      const dir = `agents/${agentId}/sessions`;
      const lines: (SearchLine & { kind: string })[] = [];
      for (const path of (await listFilePaths(fs, dir, false)).filter((p) => p.endsWith('.log.jsonl'))) {
        const sessionId = path.slice(dir.length + 1, -'.log.jsonl'.length);
        ((await readOptionalText(fs, path)) ?? '').split('\n').forEach((raw, index) => {
          if (raw.trim() === '') return;
          let entry: { type?: unknown; event?: { type?: unknown } };
          try {
            entry = JSON.parse(raw) as typeof entry;
          } catch {
            return; // a torn last line of a crashed append
          }
          const parts: string[] = [];
          collectText(entry.event ?? entry, parts);
          const kind = String(entry.event?.type ?? entry.type ?? 'entry');
          lines.push({ path: sessionId, line: index + 1, text: parts.join(' '), kind });
        });
      }
      const hits = rankLines(lines, query, limit);
      if (hits.length === 0) return ok(`No session log entry matches "${query}".`);
      return ok(
        hits
          .map((hit) => {
            const kind = (hit as SearchLine & { kind?: string }).kind ?? '';
            return `session ${hit.path} line ${hit.line} [${kind}] (score ${hit.score.toFixed(2)}): ${snippet(hit.text, query)}`;
          })
          .join('\n'),
      );
    },
  };
}
