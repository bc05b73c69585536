/**
 * Turns off the gateway's per-principal request and stream limits. Benchmarks and load tests drive the
 * platform with one user on purpose (thousands of streams, hundreds of requests a second), which the
 * production defaults rightly refuse; they measure the engine, not the limiter.
 */
export const UNLIMITED_PRINCIPALS: Readonly<Record<string, string>> = {
  AGENTRY_RATE_LIMIT_PER_API_KEY: '0',
  AGENTRY_RATE_LIMIT_PER_USER: '0',
  AGENTRY_RATE_LIMIT_PER_ENVIRONMENT: '0',
  AGENTRY_RATE_LIMIT_PER_IP: '0',
  AGENTRY_SSE_MAX_CONNECTIONS_PER_PRINCIPAL: '0',
};
