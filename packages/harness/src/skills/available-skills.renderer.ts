import type { Skill } from './skill.types.js';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The `<available_skills>` block for the system prompt: name, description and path only; the model
 * loads a skill's instructions with load_skill_through_path when it decides the skill is relevant.
 */
export function renderAvailableSkills(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const entries = skills.map((skill) =>
    [
      '<skill>',
      `<name>${escapeXml(skill.name)}</name>`,
      `<description>${escapeXml(skill.description)}</description>`,
      `<path>${escapeXml(skill.path)}</path>`,
      '</skill>',
    ].join('\n'),
  );
  return [
    '<available_skills>',
    'Skills are packaged instructions for specific tasks. When a task matches a skill\'s description, call load_skill_through_path with its name as skillId and path "SKILL.md" before acting, then follow it; load its resource files the same way when the instructions refer to them. A skill\'s files are also in the folder of its path, for your file tools.',
    ...entries,
    '</available_skills>',
  ].join('\n');
}
