import { McpManager } from '../mcp/mcp.manager.js';
import { toMcpConnectionConfigs } from '../mcp/mcp-tools-json.mapper.js';
import type { HarnessTool } from '../tools/tool.js';
import type { McpServerConfig } from '../tools/tools-config.js';
import type { Logger } from './ports.js';

export interface McpWiring {
  tools(servers: Record<string, McpServerConfig>): Promise<HarnessTool[]>;
  close(): Promise<void>;
}

/**
 * Default MCP hook: one McpManager per harness instance, kept across runs while the server configuration is
 * unchanged (so stdio servers are not restarted every turn) and replaced when tools.json changes. An invalid
 * or unreachable server is logged and its tools are left out; the agent still runs.
 */
export function createMcpWiring(logger: Logger): McpWiring {
  let current: { key: string; manager: McpManager } | undefined;
  return {
    async tools(servers) {
      const key = JSON.stringify(servers);
      if (current?.key !== key) {
        await current?.manager.close();
        current = undefined;
        try {
          current = { key, manager: new McpManager(toMcpConnectionConfigs(servers)) };
        } catch (err) {
          logger.warn('MCP server configuration is invalid; MCP tools left out', {
            error: err instanceof Error ? err.message : String(err),
          });
          return [];
        }
      }
      const listing = await current.manager.listTools();
      for (const failure of listing.failures)
        logger.warn('MCP server unavailable', {
          server: failure.server,
          code: failure.error.code,
          error: failure.error.message,
        });
      return listing.tools;
    },
    async close() {
      await current?.manager.close();
      current = undefined;
    },
  };
}
