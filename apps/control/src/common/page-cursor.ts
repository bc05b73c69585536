import { AppError } from '@agentry/contracts';

/**
 * Ids are time-sortable, so a page cursor is simply the id of the row at the page edge, wrapped so
 * clients treat it as opaque.
 */
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): string | undefined {
  if (!cursor) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[a-z]+_[0-9A-Za-z]+$/.test(id)) throw new AppError('INVALID_REQUEST', 'page: not a cursor this API returned');
  return id;
}
