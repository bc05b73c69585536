import type { AppError } from '@agentry/contracts';
import type { HarnessTool } from '../tools/tool.js';
import { McpManager, type McpManagerOptions } from './mcp.manager.js';
import { toMcpConnectionConfigs, type ToolsJsonMcpServer } from './mcp-tools-json.mapper.js';

export interface McpToolsProviderOptions extends McpManagerOptions {
  /** Told about each server that could not be reached (its tools are left out of the turn). */
  onServerFailure?: (failure: { server: string; error: AppError }) => void;
}

/**
 * Serves the harness `mcpTools` hook: keeps one McpManager per distinct `mcpServers` set, so turns of the same
 * agent reuse live connections instead of spawning servers every turn.
 */
export class McpToolsProvider {
  private readonly managers = new Map<string, McpManager>();

  constructor(private readonly options: McpToolsProviderOptions = {}) {}

  /** Number of distinct server sets with live managers. */
  get size(): number {
    return this.managers.size;
  }

  async tools(servers: Record<string, ToolsJsonMcpServer>): Promise<HarnessTool[]> {
    if (Object.keys(servers).length === 0) return [];
    const key = JSON.stringify(Object.entries(servers).sort(([a], [b]) => a.localeCompare(b)));
    let manager = this.managers.get(key);
    if (!manager) {
      manager = new McpManager(toMcpConnectionConfigs(servers), this.options);
      this.managers.set(key, manager);
    }
    const { tools, failures } = await manager.listTools();
    for (const failure of failures) this.options.onServerFailure?.(failure);
    return tools;
  }

  async close(): Promise<void> {
    const managers = [...this.managers.values()];
    this.managers.clear();
    await Promise.all(managers.map((manager) => manager.close()));
  }
}
