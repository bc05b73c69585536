import { vi } from 'vitest';
import { HandsSubjects } from '@agentry/contracts';
import type { RpcClient } from '@agentry/platform';

let pings = 0;

/**
 * Waits until a (re)started worker answers on the Hands subject: its NATS subscription may reach the
 * server a moment after `listen` resolves. The probe names no tool, so nothing runs and no E2B is asked.
 */
export async function untilWorkerAnswers(rpc: RpcClient): Promise<void> {
  await vi.waitFor(
    () =>
      rpc.request(
        HandsSubjects.exec,
        {
          tenantId: 'ten_probe',
          sessionId: 'sesn_probe',
          environmentId: 'env_probe',
          environmentType: 'local',
          toolUseId: `toolu_probe_${process.pid}_${pings++}`,
          name: 'no_such_tool',
          input: {},
          sandbox: { provider: 'bubblewrap' },
        },
        { timeoutMs: 5_000 },
      ),
    { timeout: 15_000, interval: 100 },
  );
}
