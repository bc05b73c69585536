import { z } from 'zod';
import type { HarnessTool } from '../tool.js';
import { zodInput } from '../tool-input.js';

/** What the model is told about one `agent_toolset_20260401` tool. */
export type AgentToolSchema = Pick<HarnessTool, 'name' | 'description' | 'inputSchema' | 'idempotent'> & {
  input: z.ZodType;
};

/** The arguments of each tool, as zod: the JSON Schema the model sees is derived from these. */
export const BashInputSchema = z.object({
  command: z.string().describe('The command to run').optional(),
  restart: z.boolean().describe('Restart the persistent shell before running').optional(),
  timeout_ms: z.int().describe('Per-call timeout in milliseconds').optional(),
});
export const ReadInputSchema = z.object({
  file_path: z.string(),
  view_range: z.array(z.int()).describe('[start_line, end_line] 1-indexed inclusive').optional(),
});
export const WriteInputSchema = z.object({ file_path: z.string(), content: z.string() });
export const EditInputSchema = z.object({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});
export const GlobInputSchema = z.object({
  pattern: z.string(),
  path: z.string().describe('Directory to search in. Defaults to the workdir.').optional(),
});
export const GrepInputSchema = z.object({ pattern: z.string(), path: z.string().optional() });
export const WebFetchInputSchema = z.object({ url: z.string() });
export const WebSearchInputSchema = z.object({ query: z.string() });

/**
 * The `agent_toolset_20260401` tools as the model sees them, in every environment type: CMA names and
 * the input schemas and descriptions of the official SDK's toolset (`@anthropic-ai/sdk/tools/agent-toolset`).
 * The SDK runs the web tools server-side and declares no schema for them; theirs are the documented
 * `{url}` and `{query}` inputs.
 */
export const AGENT_TOOLSET_SCHEMAS: readonly AgentToolSchema[] = [
  {
    name: 'bash',
    description: 'Run a bash command in a persistent shell. State (cwd, env vars) persists across calls.',
    ...zodInput(BashInputSchema),
    idempotent: false,
  },
  {
    name: 'read',
    description: 'Read a UTF-8 text file relative to the workdir.',
    ...zodInput(ReadInputSchema),
    idempotent: true,
  },
  {
    name: 'write',
    description: 'Write a UTF-8 text file relative to the workdir, creating parent directories as needed.',
    ...zodInput(WriteInputSchema),
    idempotent: false,
  },
  {
    name: 'edit',
    description:
      'Replace old_string with new_string in a file. old_string must be unique unless replace_all.',
    ...zodInput(EditInputSchema),
    idempotent: false,
  },
  {
    name: 'glob',
    description:
      'Match files under the workdir against a glob pattern. Results are mtime-sorted, newest first.',
    ...zodInput(GlobInputSchema),
    idempotent: true,
  },
  {
    name: 'grep',
    description: 'Search file contents for a regex. Uses ripgrep if available, otherwise a built-in walker.',
    ...zodInput(GrepInputSchema),
    idempotent: true,
  },
  {
    name: 'web_fetch',
    description: 'Fetch a URL over HTTP(S) and return its text (HTML is converted to plain text).',
    ...zodInput(WebFetchInputSchema),
    idempotent: true,
  },
  {
    name: 'web_search',
    description: 'Search the web and return the top results (title, URL, snippet).',
    ...zodInput(WebSearchInputSchema),
    idempotent: true,
  },
];

export type AgentToolsetName =
  'bash' | 'read' | 'write' | 'edit' | 'glob' | 'grep' | 'web_fetch' | 'web_search';

/** The tools that touch the session's files or shell: they run where the session's files live (the Hands). */
export const AGENT_WORKSPACE_TOOL_NAMES: ReadonlySet<string> = new Set([
  'bash',
  'read',
  'write',
  'edit',
  'glob',
  'grep',
]);

export function agentToolSchema(name: AgentToolsetName): AgentToolSchema {
  return AGENT_TOOLSET_SCHEMAS.find((s) => s.name === name)!;
}
