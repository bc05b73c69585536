import type { Skill as SkillRow, SkillVersion as VersionRow } from '@agentry/db';
import type {
  Skill,
  SkillFile,
  SkillFrontmatter,
  SkillSourceType,
  SkillVersion,
  SkillVersionFiles,
} from '@agentry/contracts';

export function toSkillDto(skill: SkillRow, latest: VersionRow): Skill {
  return {
    type: 'skill',
    id: skill.id,
    display_name: skill.name,
    latest_version_id: latest.id,
    source: { type: skill.source as SkillSourceType },
    created_at: skill.createdAt.toISOString(),
    updated_at: skill.updatedAt.toISOString(),
  };
}

export function toSkillVersionDto(row: VersionRow): SkillVersion {
  const front = row.frontMatter as SkillFrontmatter;
  return {
    type: 'skill_version',
    id: row.id,
    skill_id: row.skillId,
    name: front.name,
    description: front.description,
    created_at: row.createdAt.toISOString(),
  };
}

export function toSkillFilesDto(row: VersionRow): SkillVersionFiles {
  const front = row.frontMatter as SkillFrontmatter;
  const stored = (row.files ?? {}) as Record<string, SkillFile>;
  const files = Object.fromEntries(
    Object.entries(stored).map(([path, file]) => [
      path,
      { encoding: 'base64' as const, content: file.content },
    ]),
  );
  return {
    skill_id: row.skillId,
    version_id: row.id,
    version: row.version,
    name: front.name,
    description: front.description,
    skill_md: row.content,
    files,
  };
}
