import { createHash, randomBytes } from 'node:crypto';

/** Bearer prefix of a work item's sessions token, so a leaked one is recognisable in any scan. */
export const SESSIONS_TOKEN_PREFIX = 'agentry_worktok_';

/** A fresh per-claim sessions token. Only its hash is stored; the token leaves once, in the poll reply. */
export function mintSessionsToken(): string {
  return `${SESSIONS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashSessionsToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
