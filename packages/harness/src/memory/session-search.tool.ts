import type { SessionLogStore } from '../transcript/session-log-store.js';
import type { HarnessTool, ToolOutcome } from '../tools/tool.js';
import { rankLines, tokenize, type SearchLine } from './keyword-search.js';
import { objectSchema } from '../tools/tool-input.js';

const ok = (text: string): ToolOutcome => ({ status: 'ok', content: [{ type: 'text', text }] });

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
 * session_search: ranked keyword search over an agent's full session logs (never compacted), so facts
 * from compacted-away or earlier sessions can be found again.
 */
export function createSessionSearchTool(logs: SessionLogStore): HarnessTool {
  return {
    name: 'session_search',
    description:
      "Search this agent's past session logs (including parts compacted out of the context) by keywords.",
    inputSchema: objectSchema(
      {
        query: { type: 'string' },
        agentId: { type: 'string', description: "Whose sessions to search (default: this agent's)." },
        maxResults: { type: 'number', description: 'Default 10.' },
      },
      ['query'],
    ),
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
      const lines = await logs.lines(agentId);
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
