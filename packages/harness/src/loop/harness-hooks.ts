import type { WorkspaceFs } from '@agentry/workspace';
import type { ChatMessage, ModelPort } from '../model/model-port.js';
import type { HarnessTool } from '../tools/tool.js';
import type { McpServerConfig } from '../tools/tools-config.js';
import type { RunContext } from './harness-config.js';

export interface HookContext {
  fs: WorkspaceFs;
  model: ModelPort;
  run: RunContext;
  signal: AbortSignal;
}

/**
 * Middleware hook points, applied in this fixed order:
 * 1. workspaceContext — AGENTS.md / MEMORY.md / knowledge appended to the system prompt (per model call);
 * 2. skills — dynamic skills prompt + tools;
 * 3. permissions — built in, evaluated before each tool runs (never before the model);
 * 4. evictToolResult — large tool output moved to a file, the model sees a preview;
 * 5. compact — before each model call (and once more on CONTEXT_OVERFLOW);
 * 6. flushMemory — after the turn ends.
 * Each is skipped when its disable* switch is set.
 */
export interface HarnessHooks {
  workspaceContext?(ctx: HookContext): Promise<string>;
  skills?(ctx: HookContext): Promise<{ prompt: string; tools: HarnessTool[] }>;
  memoryTools?(ctx: HookContext): Promise<HarnessTool[]>;
  subagentTools?(ctx: HookContext): Promise<HarnessTool[]>;
  mcpTools?(servers: Record<string, McpServerConfig>, ctx: HookContext): Promise<HarnessTool[]>;
  evictToolResult?(
    ctx: HookContext,
    result: { toolUseId: string; toolName: string; text: string },
  ): Promise<string>;
  compact?(
    ctx: HookContext,
    conversation: ChatMessage[],
    options: { emergency: boolean },
  ): Promise<{ conversation: ChatMessage[]; summary?: string }>;
  flushMemory?(ctx: HookContext, conversation: ChatMessage[]): Promise<void>;
}
