import type { AgentToolName } from './agent-tools.js';

/** AgentScope product and harness tool ids → the CMA built-in tool they correspond to. */
const API_TOOL_ALIASES: Record<string, AgentToolName> = {
  bash: 'bash',
  shell: 'bash',
  execute: 'bash',
  read: 'read',
  read_file: 'read',
  write: 'write',
  write_file: 'write',
  edit: 'edit',
  edit_file: 'edit',
  glob: 'glob',
  glob_files: 'glob',
  // Listing a directory is a glob in the CMA toolset.
  list_files: 'glob',
  list_dir: 'glob',
  grep: 'grep',
  grep_files: 'grep',
  web_fetch: 'web_fetch',
  web_search: 'web_search',
};

/**
 * The CMA tool for an AgentScope tool name, or null for names with no built-in equivalent
 * (session, memory and delegation tools, which Agentry provides through other features).
 */
export function toAgentToolName(name: string): AgentToolName | null {
  return API_TOOL_ALIASES[name] ?? null;
}
