import { JwtService } from '@nestjs/jwt';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '@agentry/platform';
import { JwtKeys } from './jwt-keys.js';
import { UserTokens } from './user-tokens.js';

const CURRENT = 'current-secret-of-at-least-32-characters!';
const PREVIOUS = 'previous-secret-of-at-least-32-characters';
const claims = { sub: 'user_1', tid: 'tenant_1', nsid: 'ns_1', role: 'member' as const };

/** Tokens verified by the keys `secrets` configures, with a clock the test moves. */
function setup(secrets: { current: string; previous?: string; previousUntil?: number }) {
  const clock = new ManualClock(Date.now());
  const keys = new JwtKeys(
    {
      AGENTRY_JWT_SECRET: secrets.current,
      AGENTRY_JWT_PREVIOUS_SECRET: secrets.previous,
      AGENTRY_JWT_PREVIOUS_SECRET_ACCEPTED_UNTIL: secrets.previousUntil
        ? new Date(secrets.previousUntil).toISOString()
        : undefined,
      AGENTRY_JWT_TTL_SECONDS: 3600,
    },
    clock,
  );
  const jwt = new JwtService({});
  return { clock, jwt, tokens: new UserTokens(jwt, keys, clock) };
}

function sign(secret: string, expiresInSeconds = 60): string {
  const kid = new JwtKeys({ AGENTRY_JWT_SECRET: secret, AGENTRY_JWT_TTL_SECONDS: 3600 }, new ManualClock())
    .current.kid;
  return new JwtService({}).sign(
    { ...claims, jti: 'tok_1' },
    { secret, algorithm: 'HS256', expiresIn: expiresInSeconds, keyid: kid },
  );
}

describe('UserTokens', () => {
  it('checks a token once and answers its later requests from memory', () => {
    const { jwt, tokens } = setup({ current: CURRENT });
    const verify = vi.spyOn(jwt, 'verify');
    const token = sign(CURRENT);
    const first = tokens.verify(token);
    expect(tokens.verify(token)).toEqual(first);
    expect(first).toMatchObject({ userId: 'user_1', tenantId: 'tenant_1', tokenId: 'tok_1' });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('refuses a remembered token once it expires', () => {
    const { clock, tokens } = setup({ current: CURRENT });
    const token = sign(CURRENT, 60);
    tokens.verify(token);
    clock.advance(61_000);
    expect(() => tokens.verify(token)).toThrow(/Invalid or expired token/);
  });

  it('refuses a remembered token once the previous key it was signed with stops being accepted', () => {
    const now = Date.now();
    const { clock, tokens } = setup({ current: CURRENT, previous: PREVIOUS, previousUntil: now + 10_000 });
    const token = sign(PREVIOUS, 3600);
    expect(tokens.verify(token).userId).toBe('user_1');
    clock.advance(11_000);
    expect(() => tokens.verify(token)).toThrow(/Invalid or expired token/);
  });

  it('never remembers a token whose signature does not hold', () => {
    const { tokens } = setup({ current: CURRENT });
    const forged = sign('another-secret-of-at-least-32-characters');
    expect(() => tokens.verify(forged)).toThrow(/Invalid or expired token/);
    const tampered = `${sign(CURRENT).slice(0, -2)}xx`;
    expect(() => tokens.verify(tampered)).toThrow(/Invalid or expired token/);
  });
});
