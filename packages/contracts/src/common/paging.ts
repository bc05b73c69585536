import { z } from 'zod';
import { AppError } from './errors.js';
import { fromBase64Url, toBase64Url } from './base64url.js';

/** The page envelope `{data, next_page, prev_page?}` around any item schema. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    next_page: z.string().nullable(),
    prev_page: z.string().nullable().optional(),
  });
}
export interface Page<T> {
  data: T[];
  next_page: string | null;
  prev_page?: string | null;
}

/**
 * A page cursor: the position at the page edge (an id, a path, a version), wrapped so clients treat it
 * as opaque.
 */
export function encodeCursor(position: string): string {
  return toBase64Url(position);
}

/** The position inside a cursor, unchecked; undefined when there is none. */
export function decodeCursor(cursor: string | null | undefined): string | undefined {
  return cursor ? fromBase64Url(cursor) : undefined;
}

/** A 400 for a cursor the API never handed out. */
export function invalidCursor(): AppError {
  return new AppError('INVALID_REQUEST', 'page: not a cursor this API returned');
}

const ID = /^[a-z]+_[0-9A-Za-z]+$/;

/**
 * The row id inside a cursor. Ids are time-sortable, so a cursor is simply the id of the row at the
 * page edge; anything that does not decode to an id (of `prefix`, when given) is rejected.
 */
export function decodeIdCursor(cursor: string | null | undefined, prefix?: string): string | undefined {
  const id = decodeCursor(cursor);
  if (id === undefined) return undefined;
  const valid = prefix
    ? id.startsWith(prefix) && /^[0-9A-Za-z]+$/.test(id.slice(prefix.length))
    : ID.test(id);
  if (!valid) throw invalidCursor();
  return id;
}
