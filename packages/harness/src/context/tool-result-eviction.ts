import type { WorkspaceFs } from '@agentry/workspace';

const DEFAULT_EVICTION_THRESHOLD_CHARS = 80_000;
const DEFAULT_EVICTION_PREVIEW_CHARS = 2_000;
export const LARGE_TOOL_RESULTS_DIR = 'large_tool_results';

/**
 * Tools whose output is already a view of the workspace: evicting it would only make the model read the
 * evicted copy back through the same tool. `execute` is deliberately not listed.
 */
const EVICTION_EXCLUDED_TOOLS: readonly string[] = [
  'read',
  'write',
  'edit',
  'glob',
  'grep',
  'read_file',
  'write_file',
  'edit_file',
  'grep_files',
  'glob_files',
  'list_files',
  'memory_search',
  'memory_get',
  'session_search',
];

export interface EvictionOptions {
  toolUseId: string;
  toolName: string;
  text: string;
  thresholdChars?: number;
  previewChars?: number;
  excludedTools?: readonly string[];
  /** Where the results directory appears to the model when not at its workspace path (e.g. "/mnt/tool_results"). */
  shownDir?: string;
  /** The tool the pointer tells the model to read the file with (default read_file). */
  readTool?: string;
}

/** The workspace path an evicted result of this tool call is written to. */
function evictedResultPath(toolUseId: string): string {
  const safe = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128) || 'result';
  return `${LARGE_TOOL_RESULTS_DIR}/${safe}.txt`;
}

/**
 * Keeps huge tool outputs out of the context window: over the threshold, the full text goes to
 * `large_tool_results/<toolUseId>.txt` and the model sees a head + tail preview with a pointer to the
 * file (readable with read_file). Under the threshold the text is returned unchanged.
 */
export async function evictLargeToolResult(fs: WorkspaceFs, options: EvictionOptions): Promise<string> {
  const threshold = options.thresholdChars ?? DEFAULT_EVICTION_THRESHOLD_CHARS;
  const { text } = options;
  if (text.length <= threshold) return text;
  if ((options.excludedTools ?? EVICTION_EXCLUDED_TOOLS).includes(options.toolName)) return text;

  const path = evictedResultPath(options.toolUseId);
  await fs.writeText(path, text);
  const shown = options.shownDir
    ? `${options.shownDir.replace(/\/+$/, '')}/${path.slice(LARGE_TOOL_RESULTS_DIR.length + 1)}`
    : path;
  const readTool = options.readTool ?? 'read_file';
  const paging = readTool === 'read_file' ? 'offset/limit page through it' : 'view_range reads part of it';
  // Each part is at most half the text, so head and tail never overlap.
  const previewChars = Math.min(
    options.previewChars ?? DEFAULT_EVICTION_PREVIEW_CHARS,
    Math.floor(text.length / 2),
  );
  const head = text.slice(0, previewChars);
  const tail = text.slice(text.length - previewChars);
  return [
    `Tool output was too large (${text.length} chars) and has been saved to ${shown}. ` +
      `To read the full output, use ${readTool} with path "${shown}" (${paging}).`,
    '',
    `--- first ${head.length} chars ---`,
    head,
    `--- ${text.length - head.length - tail.length} chars omitted ---`,
    `--- last ${tail.length} chars ---`,
    tail,
  ].join('\n');
}
