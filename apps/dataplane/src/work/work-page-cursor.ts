import { AppError } from '@agentry/contracts';

/** Work ids are time-sortable, so a list cursor is the id at the page edge, wrapped to stay opaque. */
export function encodeWorkCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeWorkCursor(cursor: string | undefined): string | undefined {
  if (!cursor) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^work_[0-9A-Za-z]+$/.test(id))
    throw new AppError('INVALID_REQUEST', 'page: not a cursor this API returned');
  return id;
}
