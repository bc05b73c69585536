import { listDirectoryPaths, readOptionalText } from '../context/workspace-read.js';
import { parseFrontMatter } from '@agentry/workspace';
import { SKILL_LAYERS, type Skill, type SkillSource, type WarnLogger } from './skill.types.js';

const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

async function loadOne(source: SkillSource, dir: string, logger?: WarnLogger): Promise<Skill | null> {
  const path = `${dir}/SKILL.md`;
  const text = await readOptionalText(source.fs, path);
  if (text === null) return null;
  const skip = (reason: string): null => {
    logger?.warn('skill skipped', { path, layer: source.layer, reason });
    return null;
  };
  let parsed;
  try {
    parsed = parseFrontMatter(text);
  } catch (error) {
    return skip((error as Error).message);
  }
  const { name, description } = parsed.data;
  if (typeof name !== 'string' || !SKILL_NAME.test(name))
    return skip('front matter needs a "name" (letters, digits, . _ -)');
  if (typeof description !== 'string' || description.trim() === '')
    return skip('front matter needs a non-empty "description"');
  return {
    name,
    description: description.trim(),
    layer: source.layer,
    fs: source.fs,
    dir,
    path: source.shownAt ? `${source.shownAt.replace(/\/+$/, '')}/${path}` : path,
    body: parsed.body.trim(),
    metadata: parsed.data,
  };
}

/**
 * Loads `<root>/<folder>/SKILL.md` from every source and merges them by name: global < repository <
 * workspace < user, so a user's skill replaces a shared one with the same name. Within a layer the
 * sources keep their given order. A SKILL.md with invalid front matter is skipped with a warning.
 */
export async function loadSkills(
  sources: readonly SkillSource[],
  options: { logger?: WarnLogger } = {},
): Promise<Skill[]> {
  const ordered = sources
    .map((source, index) => ({ source, index }))
    .sort(
      (a, b) =>
        SKILL_LAYERS.indexOf(a.source.layer) - SKILL_LAYERS.indexOf(b.source.layer) || a.index - b.index,
    );
  const byName = new Map<string, Skill>();
  for (const { source } of ordered) {
    const root = source.root.replace(/\/+$/, '');
    for (const dir of await listDirectoryPaths(source.fs, root)) {
      const skill = await loadOne(source, dir, options.logger);
      if (skill) byName.set(skill.name, skill);
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
