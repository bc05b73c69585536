import { decodeCursor, encodeCursor, invalidCursor } from '@agentry/contracts/v1';

/** Which way a session page cursor reads from its edge row: on past it, or back before it. */
export type CursorDirection = 'next' | 'prev';

export interface SessionCursor {
  direction: CursorDirection;
  id: string;
}

/** Session lists page both ways, so their cursor carries a direction besides the edge id. */
export function encodeSessionCursor(direction: CursorDirection, id: string): string {
  return encodeCursor(`${direction === 'next' ? 'n' : 'p'}:${id}`);
}

export function decodeSessionCursor(cursor: string | null | undefined): SessionCursor | undefined {
  const text = decodeCursor(cursor);
  if (text === undefined) return undefined;
  const match = /^([np]):(sesn_[0-9A-Za-z]+)$/.exec(text);
  if (!match?.[1] || !match[2]) throw invalidCursor();
  return { direction: match[1] === 'n' ? 'next' : 'prev', id: match[2] };
}
