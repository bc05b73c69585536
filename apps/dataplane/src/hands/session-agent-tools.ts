import type { AgentTool } from '@agentry/contracts';
import {
  AGENT_FILE_TOOLS,
  AGENT_TOOLSET_SCHEMAS,
  AGENT_WORKSPACE_TOOL_NAMES,
  createAgentWebFetchTool,
  createAgentWebSearchTool,
  unavailableBashTool,
  type FileMount,
  type HarnessTool,
  type WebFetchOptions,
  type WebSearchOptions,
} from '@agentry/harness';
import type { WorkspaceFs } from '@agentry/workspace';
import { runsOnClusterWorker, type HandsKind } from './hands-tool-executor.js';
import { selfHostedTools } from './self-hosted-tools.js';

type AgentToolset = Extract<AgentTool, { type: 'agent_toolset_20260401' }>;

export interface SessionToolOptions {
  webFetch: WebFetchOptions;
  webSearch: WebSearchOptions;
  /** The session's own files, where a `remote` session's file tools work (never the agent's shared workspace). */
  sessionFiles?: WorkspaceFs;
  /** What the Brain mounts beside those files (/mnt), for the file tools that run here. */
  fileMounts?: () => Promise<FileMount[]>;
}

/** The toolset tools the agent enables: a tool's own `enabled` wins over the toolset default. */
function enabledAgentToolNames(toolset: AgentToolset): Set<string> {
  const enabled = new Set<string>();
  for (const { name } of AGENT_TOOLSET_SCHEMAS) {
    const config = toolset.configs.find((c) => c.name === name);
    if (config ? config.enabled : toolset.default_config.enabled) enabled.add(name);
  }
  return enabled;
}

/** Stands for a tool the cluster worker runs: the Hands executor sends the call there by name. */
function onClusterWorker(name: string): HarnessTool {
  const schema = AGENT_TOOLSET_SCHEMAS.find((s) => s.name === name)!;
  return {
    ...schema,
    toolset: 'builtin',
    execute: () =>
      Promise.resolve({
        status: 'error',
        content: [{ type: 'text', text: `${name} runs on the session's worker, not in the Brain` }],
        reason: 'hands_unavailable',
      }),
  };
}

/** A file tool bound to `files` (and the mounts beside them) instead of the harness's workspace. */
function onFiles(
  tool: HarnessTool,
  files: WorkspaceFs,
  fileMounts?: () => Promise<FileMount[]>,
): HarnessTool {
  return {
    ...tool,
    execute: async (input, context) =>
      tool.execute(input, { ...context, fs: files, ...(fileMounts ? { mounts: await fileMounts() } : {}) }),
  };
}

function workspaceTools(
  kind: HandsKind,
  sessionFiles: WorkspaceFs | undefined,
  fileMounts?: () => Promise<FileMount[]>,
): HarnessTool[] {
  if (kind === 'self_hosted') return selfHostedTools();
  if (runsOnClusterWorker(kind)) return [...AGENT_WORKSPACE_TOOL_NAMES].map(onClusterWorker);
  // `remote`: the session's own Postgres-backed files, read and written here; there is no shell.
  const bash = unavailableBashTool('remote environments have no shell; use read, write, edit, glob and grep');
  return [
    bash,
    ...AGENT_FILE_TOOLS.map((tool) => (sessionFiles ? onFiles(tool, sessionFiles, fileMounts) : tool)),
  ];
}

/**
 * `agent_toolset_20260401` as one session offers it: the CMA names and schemas in every environment
 * type, only the enabled tools, each bound to where it runs (cluster worker, customer's worker, Brain).
 */
export function sessionAgentTools(
  toolset: AgentToolset,
  kind: HandsKind,
  options: SessionToolOptions,
): HarnessTool[] {
  const enabled = enabledAgentToolNames(toolset);
  const all = [
    ...workspaceTools(kind, options.sessionFiles, options.fileMounts),
    createAgentWebFetchTool(options.webFetch),
    createAgentWebSearchTool(options.webSearch),
  ];
  return all.filter((t) => enabled.has(t.name));
}
