import type { WorkspaceFs } from '@agentry/workspace';
import type { HarnessTool } from '../tools/tool.js';
import { textOutcome } from '../tools/tool-executor.js';

export const DEFAULT_PLAN_DIR = 'plans';

/** Receives every plan written, so the run can hand the plan state back to the caller. */
export type PlanListener = (plan: { path: string; content: string }) => void;

/** Where plans live when not in the run's workspace (a per-session store), and where the model finds them. */
export interface PlanStore {
  fs: WorkspaceFs;
  /** The plan directory as the model's file tools reach it, e.g. "/mnt/plans". */
  shownDir: string;
}

/** plan_write: replaces `<planDir>/PLAN.md` (in `store` when given) with the given markdown plan. */
export function createPlanWriteTool(
  planDir: string = DEFAULT_PLAN_DIR,
  onPlan?: PlanListener,
  store?: PlanStore,
): HarnessTool {
  const path = `${planDir.replace(/\/+$/, '')}/PLAN.md`;
  const shown = store ? `${store.shownDir.replace(/\/+$/, '')}/PLAN.md` : path;
  return {
    name: 'plan_write',
    description: `Write or replace the current plan (markdown, e.g. a checklist) in ${shown}.`,
    inputSchema: {
      type: 'object',
      properties: { content: { type: 'string', description: 'The full plan in markdown' } },
      required: ['content'],
    },
    idempotent: false,
    toolset: 'builtin',
    async execute(input, { fs }) {
      const content = typeof input.content === 'string' ? input.content : '';
      await (store?.fs ?? fs).writeText(path, content);
      onPlan?.({ path, content });
      return textOutcome(`Plan saved to ${shown}`);
    },
  };
}
