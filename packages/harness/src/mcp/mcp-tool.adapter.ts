import { AppError } from '@agentry/contracts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HarnessTool } from '../tools/tool.js';
import { isElicitedCall, type McpConnection } from './mcp-connection.js';
import { toToolOutcome } from './mcp-result.mapper.js';

export interface McpToolOptions {
  /** Let tools annotated `readOnlyHint: true` run without asking. */
  autoAllowReadOnly?: boolean;
}

/** Model APIs accept tool names of letters, digits, "_" and "-" only. */
function safeName(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${safeName(server)}__${safeName(tool)}`;
}

/** Exposes one MCP tool as a HarnessTool: `mcp__{server}__{tool}`, toolset `mcp:{server}`, ask by default. */
export function toHarnessTool(
  connection: McpConnection,
  tool: Tool,
  options: McpToolOptions = {},
): HarnessTool {
  const server = connection.config.name;
  const readOnly = tool.annotations?.readOnlyHint === true;
  return {
    name: mcpToolName(server, tool.name),
    description: tool.description ?? tool.annotations?.title ?? tool.title ?? tool.name,
    inputSchema: { ...tool.inputSchema, type: 'object' },
    idempotent: readOnly,
    toolset: `mcp:${server}`,
    defaultPermission: readOnly && options.autoAllowReadOnly ? 'always_allow' : 'always_ask',
    execute: async (input, context) => {
      try {
        const result = await connection.callTool(tool.name, input, context.signal);
        if (isElicitedCall(result))
          return { status: 'pending', elicitation: { serverName: server, ...result.elicitation } };
        return toToolOutcome(result);
      } catch (error) {
        // A refused call is shown to the model so it can correct itself; connection trouble is thrown.
        if (AppError.is(error, 'TOOL_FAILED'))
          return { status: 'error', content: [{ type: 'text', text: error.message }], reason: error.message };
        throw error;
      }
    },
  };
}
