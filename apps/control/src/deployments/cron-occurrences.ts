import { CronExpressionParser } from 'cron-parser';
import { AppError, type CronScheduleParams } from '@agentry/contracts';

/** How many upcoming fire times a deployment lists (CMA: "up to 5"). */
const UPCOMING_RUNS = 5;

/**
 * Refuses a schedule the cron engine could not run. The contract's shape check lets through values it cannot
 * judge (`60 * * * *`, `foo bar baz qux quux`); the same parser BullMQ uses to fire the schedule decides
 * here, so nothing accepted can later fail when the scheduler installs it.
 */
export function assertRunnableSchedule(schedule: CronScheduleParams | null | undefined): void {
  if (!schedule) return;
  try {
    CronExpressionParser.parse(schedule.expression, { tz: schedule.timezone });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const message = `schedule.expression: ${JSON.stringify(schedule.expression)} is not a valid cron expression (${reason})`;
    throw new AppError('INVALID_REQUEST', message, {
      details: { issues: [{ path: 'schedule.expression', message: reason }] },
    });
  }
}

/** The next `count` fire times strictly after `after`, in the schedule's time zone; none if it cannot parse. */
export function upcomingRuns(
  schedule: { expression: string; timezone: string },
  after: Date,
  count = UPCOMING_RUNS,
): string[] {
  try {
    const times = CronExpressionParser.parse(schedule.expression, {
      tz: schedule.timezone,
      currentDate: after,
    });
    return times.take(count).map((t) => t.toDate().toISOString());
  } catch {
    // A row written before expressions were checked: it lists nothing rather than failing the read.
    return [];
  }
}
