import type { SessionLogStore } from '../transcript/session-log-store.js';
import type { WorkspaceFs } from '@agentry/workspace';
import type { ChatMessage, ContentBlock, ModelPort } from '../model/model-port.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { HarnessTool } from '../tools/tool.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import type { ToolsConfig } from '../tools/tools-config.js';
import type { WebFetchOptions } from '../tools/builtin/web-fetch.tool.js';
import type { PlanStore } from '../plan/plan-write.tool.js';
import type { HarnessHooks } from './harness-hooks.js';
import type { Clock, IdGenerator, Logger } from './ports.js';

export interface TokenBudgets {
  /** Max output tokens per model request. */
  maxOutputTokensPerRequest?: number;
  /** Stop the run (budget_reached) once input + output tokens of this run reach this. */
  maxTotalTokensPerRun?: number;
}

export interface HarnessConfig {
  model: ModelPort;
  /**
   * The model a `subagents/<id>.md` child runs on when its spec names one (`model:`); without this port, or
   * for a spec that names none, the child runs on `model`.
   */
  subagentModel?: (modelId: string) => ModelPort;
  workspace: WorkspaceFs;
  systemPrompt?: string;
  /** Extra tools (custom, platform, MCP...). */
  tools?: HarnessTool[];
  /**
   * Tools looked up at the start of every run, for sets that need I/O to list (an agent's remote MCP servers,
   * reached through connections the caller owns and keeps across runs). A failure here fails the run, so the
   * provider should leave unreachable servers out rather than throw.
   */
  runTools?: (run: RunContext, signal: AbortSignal) => Promise<HarnessTool[]>;
  toolExecutor?: ToolExecutor;
  clock?: Clock;
  logger?: Logger;
  idGenerator?: IdGenerator;
  permissions?: PermissionPolicy;
  /** Code equivalent of tools.json; merged with it, deny wins. */
  toolsConfig?: ToolsConfig;
  /** Values for `${VAR}` in tools.json (never read from process.env). */
  env?: Record<string, string>;
  /** Model calls per run (default 20). */
  maxIters?: number;
  budgets?: TokenBudgets;
  /** Tool calls of one model response running at once (default 4). */
  toolConcurrency?: number;
  /** Retries of a retryable model error (default 3) and the first backoff (default 500 ms, doubled). */
  modelRetries?: number;
  retryBackoffMs?: number;
  /** Longest wait before a retry (default 60 s); a `retry-after` beyond it ends the run with the error. */
  retryMaxDelayMs?: number;
  /** Per tool name: ms after which a running tool is offloaded; `default` applies to all others. */
  offloadTimeoutMs?: Record<string, number>;
  /** Directory of plans/PLAN.md (default "plans"). */
  planDir?: string;
  /** Keeps plans apart from the workspace (one store per session), shown to the model at its mounted path. */
  planStore?: PlanStore;
  webFetch?: WebFetchOptions;
  /** Middleware hook points (context, skills, eviction, compaction, memory, MCP). */
  hooks?: HarnessHooks;
  disableWorkspaceContext?: boolean;
  disableMemoryHooks?: boolean;
  disableMemoryTools?: boolean;
  disableSubagents?: boolean;
  disableDynamicSkills?: boolean;
  disableToolsConfig?: boolean;
  disableSessionPersistence?: boolean;
  /** Where runs are logged and `session_search` looks (default: the seed's log files in the workspace). */
  sessionLogs?: SessionLogStore;
  disableFilesystemTools?: boolean;
  disablePlanTools?: boolean;
  disableWebTools?: boolean;
}

/** A resolved pending tool result supplied by the caller (worker, self-hosted Hands...). */
export interface SuppliedToolResult {
  content: ContentBlock[] | string;
  isError?: boolean;
}

export type Approval = { decision: 'allow' } | { decision: 'deny'; message?: string };

export interface RunInput {
  /** Everything so far, including compaction summaries. */
  conversation: ChatMessage[];
  newMessages?: ChatMessage[];
  /** Shorthand for one new user text message. */
  text?: string;
  toolResults?: Record<string, SuppliedToolResult>;
  approvals?: Record<string, Approval>;
  /**
   * Open tool calls whose run was cut off by a crash (their runner died after committing the call): a
   * result their Hands recorded is used; otherwise idempotent tools run again and the others get an
   * error result saying they may or may not have run (see `planResume`).
   */
  cutOff?: Record<string, CutOffCall>;
}

/** A tool call cut off by a crash, with the result its Hands recorded before the cut, if any. */
export interface CutOffCall {
  recorded?: SuppliedToolResult;
  /**
   * The worker that took the call is still alive: the call is sent again, and that worker answers the copy
   * with the call's own result (it runs each call once), so it counts as not cut off at all.
   */
  stillRunning?: boolean;
}

export interface RunContext {
  sessionId: string;
  agentId: string;
  userId?: string;
  values?: Record<string, unknown>;
}
