import type { WorkspaceFs } from '@agentry/workspace';

/** Skill sources from lowest to highest precedence: a later layer overrides a skill of the same name. */
export const SKILL_LAYERS = ['global', 'repository', 'workspace', 'user'] as const;
type SkillLayer = (typeof SKILL_LAYERS)[number];

export interface SkillSource {
  layer: SkillLayer;
  fs: WorkspaceFs;
  /** Directory holding `<name>/SKILL.md` folders, e.g. "skills" or "<userId>/skills". */
  root: string;
  /** Where `fs` appears in the session's file tree (e.g. "/mnt/agent"), so a skill's path is one `read` can open. */
  shownAt?: string;
}

export interface Skill {
  name: string;
  description: string;
  layer: SkillLayer;
  /** The filesystem the skill was loaded from (global skills may live outside the session's workspace). */
  fs: WorkspaceFs;
  /** The skill folder, e.g. "skills/code-reviewer". */
  dir: string;
  /** Path of SKILL.md as the model sees it, e.g. "skills/code-reviewer/SKILL.md" or "/mnt/skills/pdf/SKILL.md". */
  path: string;
  /** SKILL.md without its front matter. */
  body: string;
  /** Every front matter field, for extensions (license, allowed-tools...). */
  metadata: Record<string, unknown>;
}

/** The slice of a logger the loaders need; any structured logger fits. */
export interface WarnLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}
