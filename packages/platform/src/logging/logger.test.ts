import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from './logger.js';

describe('log redaction', () => {
  it('never writes passwords, tokens, keys or credentials', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    logger.info(
      {
        password: 'p1',
        body: { password: 'p2', apiKey: 'k1' },
        headers: { authorization: 'Bearer t1', 'x-api-key': 'k2' },
      },
      'login',
    );
    const line = lines.join('');
    for (const secret of ['p1', 'p2', 'k1', 't1', 'k2']) expect(line).not.toContain(`"${secret}"`);
    expect(line).toContain('[redacted]');
  });
});
