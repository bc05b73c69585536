import type { WorkspaceFs } from '@agentry/workspace';
import type { HarnessTool, ToolOutcome } from '../tools/tool.js';
import { listFilePaths, readOptionalText } from '../context/workspace-read.js';
import {
  dailyLedgerPath,
  MEMORY_DIR,
  MEMORY_FILE,
  defaultMemoryClock,
  type MemoryClock,
} from './memory-clock.js';
import { rankLines, type SearchLine } from './keyword-search.js';

const ok = (text: string): ToolOutcome => ({ status: 'ok', content: [{ type: 'text', text }] });
const fail = (text: string): ToolOutcome => ({
  status: 'error',
  content: [{ type: 'text', text }],
  reason: text,
});

/** Memory files the memory tools may read: MEMORY.md and markdown under memory/. */
function isMemoryPath(path: string): boolean {
  return (
    path === MEMORY_FILE ||
    (path.startsWith(`${MEMORY_DIR}/`) && path.endsWith('.md') && !path.split('/').includes('..'))
  );
}

async function memoryLines(fs: WorkspaceFs): Promise<SearchLine[]> {
  const paths = [MEMORY_FILE, ...(await listFilePaths(fs, MEMORY_DIR)).filter(isMemoryPath)];
  const lines: SearchLine[] = [];
  for (const path of paths) {
    const text = await readOptionalText(fs, path);
    text?.split('\n').forEach((line, index) => {
      if (line.trim() !== '') lines.push({ path, line: index + 1, text: line });
    });
  }
  return lines;
}

/** memory_search, memory_get and memory_save over MEMORY.md and the daily ledgers in `fs`. */
export function createMemoryTools(fs: WorkspaceFs, options: { clock?: MemoryClock } = {}): HarnessTool[] {
  const clock = options.clock ?? defaultMemoryClock;
  const search: HarnessTool = {
    name: 'memory_search',
    description:
      'Keyword search (ranked) over MEMORY.md and memory/*.md. Returns path#line references; read around them with memory_get.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' }, maxResults: { type: 'number', description: 'Default 10.' } },
      required: ['query'],
      additionalProperties: false,
    },
    idempotent: true,
    toolset: 'builtin',
    defaultPermission: 'always_allow',
    async execute(input) {
      const query = typeof input.query === 'string' ? input.query : '';
      const limit =
        typeof input.maxResults === 'number' && input.maxResults > 0
          ? Math.min(50, Math.floor(input.maxResults))
          : 10;
      const hits = rankLines(await memoryLines(fs), query, limit);
      if (hits.length === 0) return ok(`No memory matches "${query}".`);
      return ok(
        hits
          .map((hit) => `${hit.path}#L${hit.line} (score ${hit.score.toFixed(2)}): ${hit.text.trim()}`)
          .join('\n'),
      );
    },
  };

  const get: HarnessTool = {
    name: 'memory_get',
    description: 'Read lines startLine..endLine (1-based, inclusive) of MEMORY.md or a memory/*.md file.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, startLine: { type: 'number' }, endLine: { type: 'number' } },
      required: ['path', 'startLine', 'endLine'],
      additionalProperties: false,
    },
    idempotent: true,
    toolset: 'builtin',
    defaultPermission: 'always_allow',
    async execute(input) {
      const path = typeof input.path === 'string' ? input.path.replace(/^\.\//, '') : '';
      if (!isMemoryPath(path)) return fail('memory_get reads only MEMORY.md and memory/*.md.');
      const text = await readOptionalText(fs, path);
      if (text === null) return fail(`No memory file ${path}.`);
      const lines = text.split('\n');
      const start = Math.max(1, Math.floor(Number(input.startLine) || 1));
      const end = Math.min(lines.length, Math.floor(Number(input.endLine) || lines.length));
      if (start > end) return fail(`${path} has ${lines.length} lines; asked for ${start}..${end}.`);
      return ok(
        lines
          .slice(start - 1, end)
          .map((line, i) => `${start + i}: ${line}`)
          .join('\n'),
      );
    },
  };

  const save: HarnessTool = {
    name: 'memory_save',
    description:
      "Persist facts worth remembering (a markdown bullet list) to MEMORY.md and today's ledger. Never edit memory files with write_file or edit_file.",
    inputSchema: {
      type: 'object',
      properties: { content: { type: 'string', description: 'Markdown bullet list of facts.' } },
      required: ['content'],
      additionalProperties: false,
    },
    idempotent: false,
    toolset: 'builtin',
    defaultPermission: 'always_allow',
    async execute(input) {
      const content = typeof input.content === 'string' ? input.content.trim() : '';
      if (content === '') return fail('content must not be empty.');
      const now = clock.now();
      const ledger = dailyLedgerPath(now);
      const existing = (await readOptionalText(fs, MEMORY_FILE)) ?? '';
      await fs.appendText(
        MEMORY_FILE,
        `${existing === '' || existing.endsWith('\n') ? '' : '\n'}${content}\n`,
      );
      await fs.appendText(ledger, `\n## memory_save — ${now.toISOString()}\n${content}\n`);
      return ok(`Saved to ${MEMORY_FILE} and ${ledger}.`);
    },
  };

  return [search, get, save];
}
