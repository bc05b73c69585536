import { CLIENT_TOOLSET, type HarnessTool } from './tool.js';

export interface CustomToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * A tool the client runs: the model sees its schema, a call is recorded as `agent.custom_tool_use`
 * and suspends (`pending`) until the client's result arrives in a later run. Nothing runs here, so
 * a call cut off by a crash is still waiting for the client, never re-run or failed.
 */
export function customTool(definition: CustomToolDefinition): HarnessTool {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    idempotent: false,
    toolset: CLIENT_TOOLSET,
    defaultPermission: 'always_allow',
    execute: () => Promise.resolve({ status: 'pending' }),
  };
}
