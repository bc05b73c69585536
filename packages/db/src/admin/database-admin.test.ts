import { describe, expect, it } from 'vitest';
import { databaseUrlFor } from './database-admin.js';

describe('databaseUrlFor', () => {
  it('swaps only the database name', () => {
    const url = databaseUrlFor(
      'postgresql://app:s%40cret@db.internal:6543/postgres?sslmode=disable',
      'agentry_t_1',
    );
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/agentry_t_1');
    expect(parsed.username).toBe('app');
    expect(decodeURIComponent(parsed.password)).toBe('s@cret');
    expect(parsed.host).toBe('db.internal:6543');
    expect(parsed.searchParams.get('sslmode')).toBe('disable');
  });

  it('adds a database name to a URL without one', () => {
    expect(databaseUrlFor('postgresql://postgres@127.0.0.1:5432', 'x')).toBe(
      'postgresql://postgres@127.0.0.1:5432/x',
    );
  });
});
