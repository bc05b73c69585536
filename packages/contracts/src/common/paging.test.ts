import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { decodeCursor, decodeIdCursor, encodeCursor } from './paging.js';

describe('page cursors', () => {
  it('round-trip ids, paths and versions, opaque to clients', () => {
    for (const position of [
      'agent_01JABCDEFGHJKMNPQRSTVWXYZ0',
      '/notes/día 1/€.md',
      '42',
      'n:sesn_01J',
      '',
    ]) {
      const cursor = encodeCursor(position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(decodeCursor(cursor)).toBe(position || undefined);
    }
    expect(decodeCursor(null)).toBeUndefined();
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it('encode and decode exactly as the Node Buffer base64url codec does, forged cursors included', () => {
    const texts = ['a', 'ab', 'abc', 'abcd', '{"offset":-5,"id":null}', 'ü/?~>', '\u{1F600}x'];
    for (const text of texts) expect(encodeCursor(text)).toBe(Buffer.from(text).toString('base64url'));
    const forged = [
      'YW$Jj',
      'Y',
      'YWJjZ',
      'YW Jj',
      'YW=Jj',
      'YWJj==',
      'a+b/',
      'a-b_',
      '!!!',
      '_-_-8',
      '__8',
      '%2F',
    ];
    for (const cursor of forged)
      expect(decodeCursor(cursor)).toBe(Buffer.from(cursor, 'base64url').toString('utf8'));
  });

  it('reject a cursor that does not hold an id (of the expected kind) with a 400', () => {
    expect(decodeIdCursor(encodeCursor('work_01JABC'), 'work_')).toBe('work_01JABC');
    expect(decodeIdCursor(encodeCursor('vlt_01JABC'))).toBe('vlt_01JABC');
    for (const [cursor, prefix] of [
      [encodeCursor('{"offset":-5}'), undefined],
      ['not a cursor', undefined],
      [encodeCursor('vlt_01JABC'), 'work_'],
      [encodeCursor('work_'), 'work_'],
    ] as const) {
      const error = (() => {
        try {
          decodeIdCursor(cursor, prefix);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'page: not a cursor this API returned',
      });
    }
  });
});
