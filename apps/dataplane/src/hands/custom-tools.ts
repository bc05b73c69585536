import type { AgentTool } from '@agentry/contracts';
import { customTool, type HarnessTool } from '@agentry/harness';

/** The agent's `custom` tools: offered to the model, answered by the client with `user.custom_tool_result`. */
export function agentCustomTools(tools: readonly AgentTool[]): HarnessTool[] {
  return tools.flatMap((tool) =>
    tool.type === 'custom'
      ? [customTool({ name: tool.name, description: tool.description, inputSchema: tool.input_schema })]
      : [],
  );
}
