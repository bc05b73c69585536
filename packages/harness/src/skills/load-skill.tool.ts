import type { HarnessTool, ToolOutcome } from '../tools/tool.js';
import { listFilePaths, readOptionalText } from '../context/workspace-read.js';
import type { Skill } from './skill.types.js';

const LOAD_SKILL_TOOL_NAME = 'load_skill_through_path';

const ok = (text: string): ToolOutcome => ({ status: 'ok', content: [{ type: 'text', text }] });
const fail = (text: string): ToolOutcome => ({
  status: 'error',
  content: [{ type: 'text', text }],
  reason: text,
});

/** A resource path relative to the skill folder; null when it tries to leave the folder. */
function safeRelative(path: string): string | null {
  const trimmed = path.trim().replace(/^\.\//, '');
  if (trimmed === '' || trimmed.startsWith('/') || trimmed.includes('\\') || trimmed.includes('\0'))
    return null;
  const parts = trimmed.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return null;
  return parts.join('/');
}

async function renderSkill(skill: Skill): Promise<string> {
  const resources = (await listFilePaths(skill.fs, skill.dir))
    .map((path) => path.slice(skill.dir.length + 1))
    .filter((path) => path !== 'SKILL.md');
  const lines = [`# Skill: ${skill.name}`, `Source: ${skill.path} (${skill.layer})`, '', skill.body];
  if (resources.length > 0) {
    lines.push(
      '',
      `Resource files (load with ${LOAD_SKILL_TOOL_NAME}, skillId "${skill.name}", path as listed):`,
    );
    lines.push(...resources.map((path) => `- ${path}`));
  }
  return lines.join('\n');
}

/**
 * `load_skill_through_path(skillId, path)`: returns a skill's SKILL.md instructions (plus the list of its
 * resource files) or one resource file. `skills` may be a function so per-turn skill merging is seen.
 */
export function createLoadSkillTool(skills: readonly Skill[] | (() => readonly Skill[])): HarnessTool {
  const current = (): readonly Skill[] => (typeof skills === 'function' ? skills() : skills);
  return {
    name: LOAD_SKILL_TOOL_NAME,
    description:
      'Load the instructions of one of the available skills (path "SKILL.md"), or one of its resource files (a path relative to the skill folder).',
    get inputSchema(): Record<string, unknown> {
      const names = current().map((skill) => skill.name);
      return {
        type: 'object',
        properties: {
          skillId: {
            type: 'string',
            description: 'Name of the skill, from <available_skills>.',
            ...(names.length > 0 ? { enum: names } : {}),
          },
          path: {
            type: 'string',
            description: '"SKILL.md", or a resource path relative to the skill folder.',
          },
        },
        required: ['skillId', 'path'],
        additionalProperties: false,
      };
    },
    idempotent: true,
    toolset: 'builtin',
    defaultPermission: 'always_allow',
    async execute(input) {
      const skillId = typeof input.skillId === 'string' ? input.skillId : '';
      const skill = current().find((candidate) => candidate.name === skillId);
      if (!skill) {
        const names =
          current()
            .map((s) => s.name)
            .join(', ') || '(none)';
        return fail(`Unknown skill "${skillId}". Available skills: ${names}.`);
      }
      const relative = safeRelative(typeof input.path === 'string' ? input.path : 'SKILL.md');
      if (relative === null) return fail('path must be relative to the skill folder and stay inside it.');
      if (relative === 'SKILL.md') return ok(await renderSkill(skill));
      const text = await readOptionalText(skill.fs, `${skill.dir}/${relative}`);
      if (text === null) return fail(`Skill "${skill.name}" has no file "${relative}".`);
      return ok(text);
    },
  };
}
