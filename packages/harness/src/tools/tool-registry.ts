import { createPlanWriteTool, type PlanListener } from '../plan/plan-write.tool.js';
import type { HarnessConfig } from '../loop/harness-config.js';
import type { HarnessHooks, HookContext } from '../loop/harness-hooks.js';
import type { Logger } from '../loop/ports.js';
import { createExecuteTool, isSandboxFs } from './builtin/execute.tool.js';
import { FILESYSTEM_TOOLS } from './builtin/filesystem-tools.js';
import { createWebFetchTool } from './builtin/web-fetch.tool.js';
import type { HarnessTool } from './tool.js';
import { filterTools, loadToolsConfig, mergeToolsConfig } from './tools-config.js';

export interface AssembledTools {
  tools: Map<string, HarnessTool>;
  /** Extra system-prompt text from dynamic skills. */
  skillsPrompt: string;
}

/** The tools one run offers: built-ins, hook-provided sets and configured tools, then allow/deny filtering. */
export async function assembleTools(
  config: HarnessConfig,
  hooks: HarnessHooks,
  ctx: HookContext,
  logger: Logger,
  onPlan: PlanListener,
): Promise<AssembledTools> {
  const all: HarnessTool[] = [];
  if (!config.disableFilesystemTools) all.push(...FILESYSTEM_TOOLS);
  if (isSandboxFs(config.workspace)) all.push(createExecuteTool(config.workspace));
  if (!config.disableWebTools) all.push(createWebFetchTool(config.webFetch));
  if (!config.disablePlanTools) all.push(createPlanWriteTool(config.planDir, onPlan, config.planStore));
  if (!config.disableMemoryTools && hooks.memoryTools) all.push(...(await hooks.memoryTools(ctx)));
  if (!config.disableSubagents && hooks.subagentTools) all.push(...(await hooks.subagentTools(ctx)));
  let skillsPrompt = '';
  if (!config.disableDynamicSkills && hooks.skills) {
    const skills = await hooks.skills(ctx);
    skillsPrompt = skills.prompt;
    all.push(...skills.tools);
  }
  all.push(...(config.tools ?? []));
  if (config.runTools) all.push(...(await config.runTools(ctx.run, ctx.signal)));
  const fileConfig = config.disableToolsConfig
    ? {}
    : await loadToolsConfig(config.workspace, config.env ?? {}, logger);
  const merged = mergeToolsConfig(config.toolsConfig ?? {}, fileConfig);
  if (hooks.mcpTools && Object.keys(merged.mcpServers ?? {}).length > 0)
    all.push(...(await hooks.mcpTools(merged.mcpServers ?? {}, ctx)));
  // Later registrations replace earlier ones of the same name, so configured tools can override built-ins.
  const byName = new Map<string, HarnessTool>();
  for (const tool of filterTools(all, merged)) byName.set(tool.name, tool);
  return { tools: byName, skillsPrompt };
}
