import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { assertRunnableSchedule, upcomingRuns } from './cron-occurrences.js';

const at = (iso: string) => new Date(iso);

describe('upcoming cron runs across daylight-saving changes', () => {
  it('keeps the wall-clock time when the offset changes (Berlin, spring)', () => {
    expect(
      upcomingRuns({ expression: '0 12 * 3 0', timezone: 'Europe/Berlin' }, at('2027-03-01T00:00:00Z')),
    ).toEqual([
      '2027-03-07T11:00:00.000Z',
      '2027-03-14T11:00:00.000Z',
      '2027-03-21T11:00:00.000Z',
      '2027-03-28T10:00:00.000Z',
      '2028-03-05T11:00:00.000Z',
    ]);
  });

  it('moves a time the spring change skips to just after it (02:30 does not exist on 28 March)', () => {
    expect(
      upcomingRuns({ expression: '30 2 27-31 3 *', timezone: 'Europe/Berlin' }, at('2027-03-26T00:00:00Z')),
    ).toEqual([
      '2027-03-27T01:30:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-03-29T00:30:00.000Z',
      '2027-03-30T00:30:00.000Z',
      '2027-03-31T00:30:00.000Z',
    ]);
  });

  it('follows the autumn change in New York (EDT to EST on 7 November)', () => {
    expect(
      upcomingRuns({ expression: '0 0 * 11 0', timezone: 'America/New_York' }, at('2027-11-01T00:00:00Z')),
    ).toEqual([
      '2027-11-07T04:00:00.000Z',
      '2027-11-14T05:00:00.000Z',
      '2027-11-21T05:00:00.000Z',
      '2027-11-28T05:00:00.000Z',
      '2028-11-05T04:00:00.000Z',
    ]);
  });

  it('lists nothing for a stored expression that cannot run, instead of failing the read', () => {
    expect(upcomingRuns({ expression: '60 * * * *', timezone: 'UTC' }, at('2027-01-01T00:00:00Z'))).toEqual(
      [],
    );
  });
});

describe('assertRunnableSchedule', () => {
  it.each(['60 * * * *', 'foo bar baz qux quux', '0 25 * * *', '0 0 32 * *'])(
    'refuses %s with INVALID_REQUEST naming schedule.expression',
    (expression) => {
      const refused = (() => {
        try {
          assertRunnableSchedule({ type: 'cron', expression, timezone: 'UTC' });
          return null;
        } catch (err) {
          return err;
        }
      })();
      expect(AppError.is(refused, 'INVALID_REQUEST')).toBe(true);
      expect((refused as AppError).message).toMatch(/^schedule\.expression: /);
    },
  );

  it('accepts an expression the engine can run, and no schedule at all', () => {
    expect(() =>
      assertRunnableSchedule({ type: 'cron', expression: '*/15 9-17 * * 1-5', timezone: 'Europe/Berlin' }),
    ).not.toThrow();
    expect(() => assertRunnableSchedule(null)).not.toThrow();
  });
});
