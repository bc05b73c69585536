import type { Queue } from 'bullmq';
import { platformMetrics, secondsSince } from '../metrics/instruments.js';
import { observeGauge } from '../metrics/observe.js';

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** Job counts per state of every queue this process has opened; read at collection time. */
export function observeQueueDepths(queues: () => Queue[]): void {
  observeGauge('agentry.queue.jobs', 'BullMQ jobs by queue and state', async () => {
    const readings = await Promise.all(
      queues().map(async (queue) => {
        const counts = await queue.getJobCounts(...STATES);
        return STATES.map((state) => ({
          value: counts[state] ?? 0,
          attributes: { queue: queue.name, state },
        }));
      }),
    );
    return readings.flat();
  });
}

/** One attempt's duration, labelled by queue and whether it threw (and so will be retried or fail). */
export async function timeJob<T>(queue: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome = 'failed';
  try {
    const result = await work();
    outcome = 'completed';
    return result;
  } finally {
    platformMetrics().jobDuration.record(secondsSince(started), { queue, outcome });
  }
}
