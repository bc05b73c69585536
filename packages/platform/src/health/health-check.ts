/** A dependency the readiness probe checks; `check` throws or rejects when it is not usable. */
export interface HealthIndicator {
  name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, { status: 'ok' | 'down'; error?: string }>;
}

export async function checkReadiness(
  indicators: HealthIndicator[],
  timeoutMs = 2_000,
): Promise<ReadinessReport> {
  const checks: ReadinessReport['checks'] = {};
  await Promise.all(
    indicators.map(async (indicator) => {
      try {
        await Promise.race([
          indicator.check(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), timeoutMs).unref()),
        ]);
        checks[indicator.name] = { status: 'ok' };
      } catch (error) {
        checks[indicator.name] = { status: 'down', error: (error as Error).message };
      }
    }),
  );
  const healthy = Object.values(checks).every((c) => c.status === 'ok');
  return { status: healthy ? 'ok' : 'unavailable', checks };
}
