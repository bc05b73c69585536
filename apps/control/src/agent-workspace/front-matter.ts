import { AppError } from '@agentry/contracts';
import { parseFrontMatter, type FrontMatterDocument } from '@agentry/workspace';

/**
 * The front matter of a definition file as the harness reads it, for listings: a file written by hand
 * with YAML the harness would refuse reads as having none, rather than failing the whole listing.
 */
export function readFrontMatter(markdown: string): FrontMatterDocument {
  try {
    return parseFrontMatter(markdown);
  } catch {
    return { data: {}, body: markdown };
  }
}

/** A front-matter field as text, or undefined when absent or not a scalar. */
export function textField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** SKILL.md must open with the front matter the harness loads a skill by: its name and a description. */
export function skillFrontMatter(
  markdown: string,
  expectedName: string,
): { name: string; description: string } {
  const { data } = parseFrontMatter(markdown);
  if (Object.keys(data).length === 0) {
    throw new AppError(
      'INVALID_REQUEST',
      'markdown: SKILL.md must start with front matter between "---" lines',
    );
  }
  const name = textField(data, 'name');
  if (!name) throw new AppError('INVALID_REQUEST', 'markdown: front matter needs a "name"');
  if (name !== expectedName)
    throw new AppError(
      'INVALID_REQUEST',
      `markdown: front matter name "${name}" must equal the skill name "${expectedName}"`,
    );
  const description = textField(data, 'description')?.trim();
  if (!description || description.includes('\n')) {
    throw new AppError('INVALID_REQUEST', 'markdown: front matter needs a non-empty one-line "description"');
  }
  return { name, description };
}
