import { SESSION_MOUNT_PATHS } from '@agentry/contracts';
import {
  createLoadSkillTool,
  evictLargeToolResult,
  loadSkills,
  renderAvailableSkills,
  type HarnessHooks,
  type SkillSource,
  type WarnLogger,
} from '@agentry/harness';
import type { SessionMountPlan } from './session-mount-plan.js';

/**
 * The harness hooks that put what the Brain writes for a session where its mounts show it: evicted tool
 * outputs in the session's own store (pointer at /mnt/tool_results, followed with `read`), and the skill
 * index over the attached `/v1` skills and the agent's workspace skills, each at its mounted path.
 */
export function mountedArtefactHooks(
  plan: SessionMountPlan,
  logger: WarnLogger,
): Pick<HarnessHooks, 'evictToolResult' | 'skills'> {
  return {
    evictToolResult: (_ctx, result) =>
      evictLargeToolResult(plan.artefacts, {
        ...result,
        shownDir: SESSION_MOUNT_PATHS.toolResults,
        readTool: 'read',
      }),
    async skills({ fs }) {
      // The agent's own skills (its workspace) win over an attached skill of the same name.
      const sources: SkillSource[] = [
        ...(plan.attachedSkills ? [plan.attachedSkills] : []),
        { layer: 'workspace', fs, root: 'skills', shownAt: SESSION_MOUNT_PATHS.agent },
      ];
      const skills = await loadSkills(sources, { logger });
      if (skills.length === 0) return { prompt: '', tools: [] };
      return { prompt: renderAvailableSkills(skills), tools: [createLoadSkillTool(skills)] };
    },
  };
}
