export type SubagentWorkspaceMode = 'isolated' | 'shared';

/** A sub-agent the main agent can spawn: declared in `subagents/<id>.md` or registered in code. */
export interface SubagentSpec {
  /** The file name without `.md`, or the id given in code; what `agent_spawn` takes as agent_id. */
  id: string;
  /** Tells the main agent when to use this sub-agent. */
  description: string;
  /** The child's system prompt (the file body, or `<workspace.path>/AGENTS.md`). */
  systemPrompt: string;
  /** isolated (default): the child works under `subagents_ws/<task id>/`; shared: the parent's workspace. */
  workspaceMode: SubagentWorkspaceMode;
  /** Model id for the child; absent = inherit the parent's. */
  model?: string;
  /** The model's settings when `model:` is written as a config (`{id, ...settings}`), as an agent's model is. */
  modelSettings?: Record<string, unknown>;
  /** Tool allowlist for the child; absent = the parent's tools. */
  tools?: string[];
  /** Iteration cap of the child's loop (default 10). */
  maxIters: number;
  source: 'file' | 'code';
}

export const DEFAULT_SUBAGENT_MAX_ITERS = 10;

/** What code registration accepts: defaults are filled in. */
export type SubagentDeclaration = Pick<SubagentSpec, 'id' | 'description' | 'systemPrompt'> &
  Partial<Pick<SubagentSpec, 'workspaceMode' | 'model' | 'tools' | 'maxIters'>>;
