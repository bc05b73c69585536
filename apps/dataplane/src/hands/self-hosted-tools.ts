import type { HarnessTool } from '@agentry/harness';

/**
 * The `agent_toolset_20260401` file and shell tools as a self-hosted worker runs them: CMA names and
 * the exact input schemas of the official SDK's toolset (`@anthropic-ai/sdk/tools/agent-toolset`), so
 * its SessionToolRunner can execute every call the model makes. The Brain holds schemas only.
 */
const SCHEMAS: ReadonlyArray<Pick<HarnessTool, 'name' | 'description' | 'inputSchema' | 'idempotent'>> = [
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
];

export const SELF_HOSTED_TOOL_NAMES: ReadonlySet<string> = new Set(SCHEMAS.map((s) => s.name));

/**
 * Schema-only tools: calling one commits the `agent.tool_use` and suspends the call (`pending`); the
 * worker's `user.tool_result` supplies the outcome in a later run.
 */
export function selfHostedTools(): HarnessTool[] {
  return SCHEMAS.map((schema) => ({
    ...schema,
    toolset: 'builtin',
    execute: async () => ({ status: 'pending' as const }),
  }));
}
