import { AppError } from '@agentry/contracts';
import type { WorkspaceFs } from '@agentry/workspace';
import type { Logger } from '../loop/ports.js';
import type { HarnessTool } from './tool.js';

/** One `mcpServers` entry of tools.json (the Claude/Cursor-style shape, keyed by server name). */
export interface McpServerConfig {
  transport?: 'stdio' | 'sse' | 'http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  queryParams?: Record<string, string>;
  enableTools?: string[];
  /** Milliseconds per call. */
  timeout?: number;
}

/** The shape of `tools.json` (and of the equivalent code configuration). */
export interface ToolsConfig {
  allow?: string[];
  deny?: string[];
  mcpServers?: Record<string, McpServerConfig>;
}

export const TOOLS_CONFIG_PATH = 'tools.json';

/** Replaces `${VAR}` with values from `env`; an unset variable becomes '' and is reported. */
function substituteEnv(
  text: string,
  env: Record<string, string | undefined>,
  missing: (name: string) => void = () => {},
): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined) missing(name);
    return value ?? '';
  });
}

/**
 * Reads `tools.json` from the workspace. A missing file is an empty config; an unreadable one is logged
 * and ignored so the agent still starts with its default tools.
 */
export async function loadToolsConfig(
  fs: WorkspaceFs,
  env: Record<string, string | undefined>,
  logger: Logger,
): Promise<ToolsConfig> {
  let raw: string;
  try {
    raw = await fs.readText(TOOLS_CONFIG_PATH);
  } catch (err) {
    if (AppError.is(err, 'NOT_FOUND')) return {};
    throw err;
  }
  const text = substituteEnv(raw, env, (name) =>
    logger.warn('tools.json references an unset variable', { name }),
  );
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed;
  } catch (err) {
    logger.warn('tools.json is not valid; using default tools', {
      error: err instanceof Error ? err.message : String(err),
    });
    return {};
  }
}

/** Code config and tools.json combine: allow lists union, deny lists union, deny wins. */
export function mergeToolsConfig(a: ToolsConfig, b: ToolsConfig): ToolsConfig {
  return {
    allow: [...(a.allow ?? []), ...(b.allow ?? [])],
    deny: [...(a.deny ?? []), ...(b.deny ?? [])],
    mcpServers: { ...(a.mcpServers ?? {}), ...(b.mcpServers ?? {}) },
  };
}

/** A non-empty allow list hides every tool not named, except platform tools; deny always removes. */
export function filterTools(tools: HarnessTool[], config: ToolsConfig): HarnessTool[] {
  const allow = new Set(config.allow ?? []);
  const deny = new Set(config.deny ?? []);
  return tools.filter(
    (t) => !deny.has(t.name) && (allow.size === 0 || allow.has(t.name) || t.toolset === 'platform'),
  );
}
