import { AppError } from '@agentry/contracts';

/** Which way a session page cursor reads from its edge row: on past it, or back before it. */
export type CursorDirection = 'next' | 'prev';

export interface SessionCursor {
  direction: CursorDirection;
  id: string;
}

/** Session lists page both ways, so their cursor carries a direction besides the edge id. */
export function encodeSessionCursor(direction: CursorDirection, id: string): string {
  return Buffer.from(`${direction === 'next' ? 'n' : 'p'}:${id}`, 'utf8').toString('base64url');
}

export function decodeSessionCursor(cursor: string | null | undefined): SessionCursor | undefined {
  if (!cursor) return undefined;
  const match = /^([np]):(sesn_[0-9A-Za-z]+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) throw new AppError('INVALID_REQUEST', 'page: not a cursor this API returned');
  return { direction: match[1] === 'n' ? 'next' : 'prev', id: match[2] };
}
