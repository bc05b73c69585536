import { createHash, randomBytes } from 'node:crypto';

/** A bearer secret shown once: `<prefix>_<random>`; only its SHA-256 is stored. */
export function newSecretToken(prefix: string): { token: string; hash: string; display: string } {
  const token = `${prefix}_${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashSecretToken(token), display: `${token.slice(0, prefix.length + 5)}…` };
}

export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** `last_used_at` is kept to the minute: a credential checked on every request is not a write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function lastUsedIsStale(lastUsedAt: Date | null, now: number): boolean {
  return !lastUsedAt || now - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
}
