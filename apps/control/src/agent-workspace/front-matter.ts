import { AppError } from '@agentry/contracts';

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface FrontMatter {
  fields: Record<string, string>;
  body: string;
}

/** Splits markdown into the top-level `key: value` lines of its YAML front matter and its body; null without one. */
export function readFrontMatter(markdown: string): FrontMatter | null {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) return null;
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (kv) fields[kv[1]!] = scalar(kv[2]!.trim());
  }
  return { fields, body: markdown.slice(match[0].length) };
}

/** A YAML scalar as text: JSON-style double quotes are decoded, single quotes stripped. */
function scalar(value: string): string {
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      return String(JSON.parse(value));
    } catch {
      return value.slice(1, -1);
    }
  }
  return /^'.*'$/.test(value) ? value.slice(1, -1).replaceAll("''", "'") : value;
}

/** SKILL.md must open with the front matter the harness loads a skill by: its name and a description. */
export function skillFrontMatter(markdown: string, expectedName: string): { name: string; description: string } {
  const parsed = readFrontMatter(markdown);
  if (!parsed) throw new AppError('INVALID_REQUEST', 'markdown: SKILL.md must start with front matter between "---" lines');
  const { name, description } = parsed.fields;
  if (!name) throw new AppError('INVALID_REQUEST', 'markdown: front matter needs a "name"');
  if (name !== expectedName) throw new AppError('INVALID_REQUEST', `markdown: front matter name "${name}" must equal the skill name "${expectedName}"`);
  if (!description || /^[|>][-+]?$/.test(description)) {
    throw new AppError('INVALID_REQUEST', 'markdown: front matter needs a non-empty one-line "description"');
  }
  return { name, description };
}
