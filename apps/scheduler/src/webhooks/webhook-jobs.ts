import { Jobs } from '@agentry/contracts';
import type { SchedulerEnv } from '../config/env.js';

/** The delivery job with this installation's retry policy (attempts and first delay from config). */
export function deliveryJob(config: SchedulerEnv): typeof Jobs.webhookDelivery {
  return {
    ...Jobs.webhookDelivery,
    attempts: config.AGENTRY_WEBHOOK_MAX_ATTEMPTS,
    backoffMs: config.AGENTRY_WEBHOOK_BACKOFF_MS,
  };
}
