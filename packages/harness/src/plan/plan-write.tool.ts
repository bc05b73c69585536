import type { HarnessTool } from '../tools/tool.js';
import { textOutcome } from '../tools/tool-executor.js';

export const DEFAULT_PLAN_DIR = 'plans';

/** Receives every plan written, so the run can hand the plan state back to the caller. */
export type PlanListener = (plan: { path: string; content: string }) => void;

/** plan_write: replaces `<planDir>/PLAN.md` with the given markdown plan. */
export function createPlanWriteTool(planDir: string = DEFAULT_PLAN_DIR, onPlan?: PlanListener): HarnessTool {
  const path = `${planDir.replace(/\/+$/, '')}/PLAN.md`;
  return {
    name: 'plan_write',
    description: `Write or replace the current plan (markdown, e.g. a checklist) in ${path}.`,
    inputSchema: { type: 'object', properties: { content: { type: 'string', description: 'The full plan in markdown' } }, required: ['content'] },
    idempotent: false,
    toolset: 'builtin',
    async execute(input, { fs }) {
      const content = typeof input.content === 'string' ? input.content : '';
      await fs.writeText(path, content);
      onPlan?.({ path, content });
      return textOutcome(`Plan saved to ${path}`);
    },
  };
}
