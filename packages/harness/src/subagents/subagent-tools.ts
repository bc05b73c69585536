import type { HarnessTool } from '../tools/tool.js';
import { createAgentSpawnTool, type SubagentToolDeps } from './agent-spawn.tool.js';
import { createTaskTools } from './task.tools.js';

/** agent_spawn, task_output, task_list, task_cancel and wait_async_results, sharing one task registry. */
export function createSubagentTools<E>(deps: SubagentToolDeps<E>): HarnessTool[] {
  return [createAgentSpawnTool(deps), ...createTaskTools(deps.registry)];
}
