import type { HarnessTool } from '../tool.js';

/** What the model is told about one `agent_toolset_20260401` tool. */
export type AgentToolSchema = Pick<HarnessTool, 'name' | 'description' | 'inputSchema' | 'idempotent'>;

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
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command to run' },
        restart: { type: 'boolean', description: 'Restart the persistent shell before running' },
        timeout_ms: { type: 'integer', description: 'Per-call timeout in milliseconds' },
      },
    },
    idempotent: false,
  },
  {
    name: 'read',
    description: 'Read a UTF-8 text file relative to the workdir.',
    inputSchema: {
      type: 'object',
      properties: {
        file_path: { type: 'string' },
        view_range: {
          type: 'array',
          items: { type: 'integer' },
          description: '[start_line, end_line] 1-indexed inclusive',
        },
      },
      required: ['file_path'],
    },
    idempotent: true,
  },
  {
    name: 'write',
    description: 'Write a UTF-8 text file relative to the workdir, creating parent directories as needed.',
    inputSchema: {
      type: 'object',
      properties: { file_path: { type: 'string' }, content: { type: 'string' } },
      required: ['file_path', 'content'],
    },
    idempotent: false,
  },
  {
    name: 'edit',
    description:
      'Replace old_string with new_string in a file. old_string must be unique unless replace_all.',
    inputSchema: {
      type: 'object',
      properties: {
        file_path: { type: 'string' },
        old_string: { type: 'string' },
        new_string: { type: 'string' },
        replace_all: { type: 'boolean' },
      },
      required: ['file_path', 'old_string', 'new_string'],
    },
    idempotent: false,
  },
  {
    name: 'glob',
    description:
      'Match files under the workdir against a glob pattern. Results are mtime-sorted, newest first.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string' },
        path: { type: 'string', description: 'Directory to search in. Defaults to the workdir.' },
      },
      required: ['pattern'],
    },
    idempotent: true,
  },
  {
    name: 'grep',
    description: 'Search file contents for a regex. Uses ripgrep if available, otherwise a built-in walker.',
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: 'string' } },
      required: ['pattern'],
    },
    idempotent: true,
  },
  {
    name: 'web_fetch',
    description: 'Fetch a URL over HTTP(S) and return its text (HTML is converted to plain text).',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    idempotent: true,
  },
  {
    name: 'web_search',
    description: 'Search the web and return the top results (title, URL, snippet).',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
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
