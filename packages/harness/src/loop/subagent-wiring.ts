import type { Harness } from '../harness.js';
import { loadSubagentSpecs } from '../subagents/subagent-loader.js';
import { SubagentRegistry } from '../subagents/subagent-registry.js';
import type { ChildRunner } from '../subagents/subagent-runner.js';
import { SubagentTaskRegistry } from '../subagents/subagent-task-registry.js';
import { createSubagentTools } from '../subagents/subagent-tools.js';
import type { HarnessTool } from '../tools/tool.js';
import type { HarnessConfig } from './harness-config.js';
import type { HarnessEvent } from './harness-events.js';
import type { HookContext } from './harness-hooks.js';
import type { Logger } from './ports.js';

/**
 * Default sub-agent tools: `subagents/<id>.md` declarations become spawnable children, each run by a
 * child harness built from the parent's config (the spec's model when it names one and the config can
 * resolve it, the parent's otherwise; the spec's prompt, tool allowlist and iteration cap; no grandchildren). Task tables live per session inside this harness instance.
 */
export function subagentToolsHook(
  config: HarnessConfig,
  logger: Logger,
  createChild: (config: HarnessConfig) => Harness,
): (ctx: HookContext) => Promise<HarnessTool[]> {
  const tasks = new Map<string, SubagentTaskRegistry>();
  const runChild: ChildRunner<HarnessEvent> = async function* (spec, task, signal, context) {
    const child = createChild({
      ...config,
      model: spec.model && config.subagentModel ? config.subagentModel(spec.model) : config.model,
      workspace: context.fs,
      systemPrompt: spec.systemPrompt,
      maxIters: spec.maxIters,
      toolsConfig: spec.tools ? { ...config.toolsConfig, allow: spec.tools } : (config.toolsConfig ?? {}),
      disableSubagents: true,
      disableSessionPersistence: true,
    });
    let answer: string | undefined;
    try {
      for await (const event of child.run(
        { conversation: [], text: task },
        { sessionId: context.taskId, agentId: spec.id, values: context.values },
        signal,
      )) {
        yield event;
        if (event.type === 'agent.message') answer = event.content.map((b) => b.text).join('');
      }
    } finally {
      await child.close();
    }
    return answer;
  };
  return async ({ fs, run }) => {
    const agents = new SubagentRegistry(await loadSubagentSpecs(fs, { logger }));
    if (agents.list().length === 0) return [];
    let registry = tasks.get(run.sessionId);
    if (!registry) tasks.set(run.sessionId, (registry = new SubagentTaskRegistry()));
    return createSubagentTools({ registry, agents, runChild });
  };
}
