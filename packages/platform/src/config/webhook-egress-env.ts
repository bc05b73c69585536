import { z } from 'zod';

/**
 * Where webhook deliveries may go, read by control (when an endpoint is saved) and by the scheduler (when
 * it delivers), so both refuse the same addresses.
 */
export const WebhookEgressEnvSchema = z.object({
  /**
   * Let webhook endpoints point at loopback, private, link-local and metadata addresses (tests, development,
   * a receiver inside the installation's network).
   */
  AGENTRY_WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Webhook hosts let through wherever they resolve, comma-separated as a URL writes them (`host:port`, or
   * `host` on the default port): one receiver on the installation's own network, every other private
   * address still refused.
   */
  AGENTRY_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
});
