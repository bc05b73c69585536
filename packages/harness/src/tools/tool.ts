import type { WorkspaceFs } from '@agentry/workspace';
import type { z } from 'zod';
import type { ContentBlock } from '../model/model-port.js';

/** What a tool returns. `pending` means the result will arrive in a later turn (self-hosted worker, HITL, offload). */
export type ToolOutcome =
  | { status: 'ok'; content: ContentBlock[] }
  | { status: 'error'; content: ContentBlock[]; reason?: string }
  | { status: 'pending'; placeholder?: string; elicitation?: ToolElicitation };

/**
 * An MCP server asked for the user to act at a link (MCP URL elicitation) before it can finish the call:
 * the call waits for the user's answer, and runs again with the same input once they accept.
 */
interface ToolElicitation {
  serverName: string;
  message: string;
  url: string;
}

export interface ToolContext {
  toolCallId: string;
  /** The workspace the tool sees (already scoped). */
  fs: WorkspaceFs;
  signal: AbortSignal;
  sessionId: string;
  agentId: string;
  /** Free-form values the caller puts in (tenant, user, environment...). */
  values: Record<string, unknown>;
  /** Trees shown beside the workspace at absolute paths (e.g. /mnt): file tools resolve paths under them. */
  mounts?: readonly FileMount[];
}

/** A file tree that appears at an absolute path of the session's file tree (read-only unless its fs allows writes). */
export interface FileMount {
  /** Absolute path, e.g. "/mnt". */
  path: string;
  fs: WorkspaceFs;
}

export type ToolPermission = 'always_allow' | 'always_ask' | 'deny';

export interface HarnessTool {
  name: string;
  description: string;
  /** JSON Schema (type: object) of the input, as the model is shown it. */
  inputSchema: Record<string, unknown>;
  /** The input as a zod schema, where the tool is written with one (`inputSchema` is then derived from it). */
  input?: z.ZodType;
  /** Safe to re-run after a crash (read-only): decides recovery of a tool_use without a result. */
  idempotent: boolean;
  /** Toolset this tool belongs to, for default permissions: "builtin", "mcp:<server>", "custom", "platform", "client". */
  toolset: string;
  /** Default permission when no policy names this tool. */
  defaultPermission?: ToolPermission;
  execute(input: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/**
 * The toolset of tools the caller's client runs itself (CMA's `custom` tools): never subject to a
 * permission policy, recorded as `agent.custom_tool_use`. (In-process tools a caller adds use `custom`.)
 */
export const CLIENT_TOOLSET = 'client';
