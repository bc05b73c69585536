import { AppError } from '@agentry/contracts';
import type { WorkspaceFs } from '@agentry/workspace';
import { createHarness, type Harness } from '../harness.js';
import type { ModelPort } from '../model/model-port.js';
import type { HarnessTool, ToolPermission } from '../tools/tool.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import type { ToolsConfig } from '../tools/tools-config.js';
import type { HarnessConfig, TokenBudgets } from './harness-config.js';
import type { HarnessHooks } from './harness-hooks.js';
import type { Clock, IdGenerator, Logger } from './ports.js';

type DisableSwitch =
  | 'disableWorkspaceContext'
  | 'disableMemoryHooks'
  | 'disableMemoryTools'
  | 'disableSubagents'
  | 'disableDynamicSkills'
  | 'disableToolsConfig'
  | 'disableSessionPersistence'
  | 'disableFilesystemTools'
  | 'disablePlanTools'
  | 'disableWebTools';

/** Fluent equivalent of HarnessConfig: `new HarnessBuilder().model(m).workspace(fs).tool(t).build()`. */
export class HarnessBuilder {
  private readonly config: Partial<HarnessConfig> = {};

  model(model: ModelPort): this {
    return this.set({ model });
  }
  workspace(workspace: WorkspaceFs): this {
    return this.set({ workspace });
  }
  systemPrompt(systemPrompt: string): this {
    return this.set({ systemPrompt });
  }
  tool(tool: HarnessTool): this {
    return this.set({ tools: [...(this.config.tools ?? []), tool] });
  }
  toolExecutor(toolExecutor: ToolExecutor): this {
    return this.set({ toolExecutor });
  }
  clock(clock: Clock): this {
    return this.set({ clock });
  }
  logger(logger: Logger): this {
    return this.set({ logger });
  }
  idGenerator(idGenerator: IdGenerator): this {
    return this.set({ idGenerator });
  }
  /** Per-tool permission (wins over toolset defaults). */
  permission(toolName: string, permission: ToolPermission): this {
    const p = this.config.permissions ?? {};
    return this.set({ permissions: { ...p, tools: { ...p.tools, [toolName]: permission } } });
  }
  toolsetPermission(toolset: string, permission: ToolPermission): this {
    const p = this.config.permissions ?? {};
    return this.set({ permissions: { ...p, toolsets: { ...p.toolsets, [toolset]: permission } } });
  }
  toolsConfig(toolsConfig: ToolsConfig): this {
    return this.set({ toolsConfig });
  }
  env(env: Record<string, string>): this {
    return this.set({ env });
  }
  maxIters(maxIters: number): this {
    return this.set({ maxIters });
  }
  budgets(budgets: TokenBudgets): this {
    return this.set({ budgets });
  }
  offloadTimeout(toolName: string, ms: number): this {
    return this.set({ offloadTimeoutMs: { ...this.config.offloadTimeoutMs, [toolName]: ms } });
  }
  hooks(hooks: HarnessHooks): this {
    return this.set({ hooks: { ...this.config.hooks, ...hooks } });
  }
  disable(...switches: DisableSwitch[]): this {
    for (const s of switches) this.config[s] = true;
    return this;
  }
  disableWorkspaceContext(): this {
    return this.disable('disableWorkspaceContext');
  }
  disableMemoryHooks(): this {
    return this.disable('disableMemoryHooks');
  }
  disableMemoryTools(): this {
    return this.disable('disableMemoryTools');
  }
  disableSubagents(): this {
    return this.disable('disableSubagents');
  }
  disableDynamicSkills(): this {
    return this.disable('disableDynamicSkills');
  }
  disableToolsConfig(): this {
    return this.disable('disableToolsConfig');
  }
  disableSessionPersistence(): this {
    return this.disable('disableSessionPersistence');
  }
  /** Any other option of HarnessConfig. */
  with(options: Partial<HarnessConfig>): this {
    return this.set(options);
  }

  toConfig(): HarnessConfig {
    if (!this.config.model || !this.config.workspace)
      throw new AppError('INVALID_REQUEST', 'HarnessBuilder needs model() and workspace() before build()');
    return { ...this.config } as HarnessConfig;
  }

  build(): Harness {
    return createHarness(this.toConfig());
  }

  private set(patch: Partial<HarnessConfig>): this {
    Object.assign(this.config, patch);
    return this;
  }
}
