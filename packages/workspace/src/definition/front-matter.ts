import { AppError } from '@agentry/contracts';
import { parse } from 'yaml';

export interface FrontMatterDocument {
  data: Record<string, unknown>;
  body: string;
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits a markdown file into its YAML front matter (between `---` lines at the top) and body.
 * A file without front matter has empty data; malformed YAML or a non-mapping is an INVALID_REQUEST.
 */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: {}, body: text };
  let data: unknown;
  try {
    data = parse(match[1] ?? '');
  } catch (error) {
    throw new AppError('INVALID_REQUEST', `Invalid YAML front matter: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new AppError('INVALID_REQUEST', 'YAML front matter must be a mapping of fields');
  }
  return { data: data as Record<string, unknown>, body: text.slice(match[0].length) };
}
