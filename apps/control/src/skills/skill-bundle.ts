import { AppError, SkillFrontmatterSchema, type SkillFrontmatter } from '@agentry/contracts';

export interface SkillBundle {
  /** SKILL.md, front matter included. */
  content: string;
  frontMatter: SkillFrontmatter;
  /** Every other file, by its path inside the skill folder. */
  files: Record<string, { encoding: 'base64'; content: string }>;
}

/**
 * Checks an uploaded skill folder: one top-level directory, a SKILL.md at its root whose front matter
 * carries a valid `name` and `description`, and no path that climbs out of the folder.
 */
export function readSkillBundle(upload: { path: string; content_base64: string }[]): SkillBundle {
  if (upload.length === 0) throw new AppError('INVALID_REQUEST', 'files: at least SKILL.md is required');
  const roots = new Set<string>();
  const files: SkillBundle['files'] = {};
  let skillMd: string | undefined;
  for (const [i, file] of upload.entries()) {
    const segments = file.path
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s !== '');
    if (segments.some((s) => s === '.' || s === '..')) {
      throw new AppError(
        'INVALID_REQUEST',
        `files.${i}: path ${file.path} must not contain "." or ".." segments`,
      );
    }
    if (segments.length < 2) {
      throw new AppError(
        'INVALID_REQUEST',
        `files.${i}: ${file.path} must be inside the skill's top-level directory`,
      );
    }
    roots.add(segments[0]!);
    const relative = segments.slice(1).join('/');
    if (relative === 'SKILL.md') skillMd = Buffer.from(file.content_base64, 'base64').toString('utf8');
    else files[relative] = { encoding: 'base64', content: file.content_base64 };
  }
  if (roots.size > 1)
    throw new AppError(
      'INVALID_REQUEST',
      `files: all files must share one top-level directory, got ${[...roots].join(', ')}`,
    );
  if (skillMd === undefined)
    throw new AppError('INVALID_REQUEST', 'files: SKILL.md is missing at the root of the skill directory');
  return { content: skillMd, frontMatter: parseFrontMatter(skillMd), files };
}

/** Reads the `key: value` lines of the YAML front matter that opens SKILL.md. */
function parseFrontMatter(markdown: string): SkillFrontmatter {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(markdown);
  if (!match)
    throw new AppError('INVALID_REQUEST', 'SKILL.md: must start with front matter between "---" lines');
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (kv) fields[kv[1]!] = unquote(kv[2]!.trim());
  }
  const parsed = SkillFrontmatterSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      'INVALID_REQUEST',
      `SKILL.md front matter ${issue?.path.join('.') || ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
