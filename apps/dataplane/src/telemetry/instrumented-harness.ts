import type { Harness, HarnessEvent } from '@agentry/harness';
import { platformMetrics, secondsSince, startChildSpan, streamInSpan } from '@agentry/platform';

/**
 * One turn as an `invoke_agent` span (parent of its model and tool spans) with the turn's duration,
 * time to its first event, and how it stopped. A budget stop counts as a budget rejection.
 */
export function instrumentHarness(harness: Harness, agentId: string): Harness {
  async function* run(...args: Parameters<Harness['run']>): AsyncGenerator<HarnessEvent> {
    const metrics = platformMetrics();
    const span = startChildSpan('invoke_agent', 'internal', {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': agentId,
    });
    const started = performance.now();
    let first = true;
    let stopReason = 'error';
    try {
      for await (const event of streamInSpan(span, harness.run(...args))) {
        if (first) metrics.turnTimeToFirstEvent.record(secondsSince(started));
        first = false;
        if (event.type === 'run.end') stopReason = event.stop_reason.type;
        yield event;
      }
    } finally {
      span.setAttribute('agentry.stop_reason', stopReason);
      metrics.turnDuration.record(secondsSince(started), { stop_reason: stopReason });
      if (stopReason === 'budget_reached') metrics.budgetRejections.add(1);
      span.end();
    }
  }
  return {
    config: harness.config,
    run,
    pendingResults: (sessionId) => harness.pendingResults(sessionId),
    runningTasks: (sessionId) => harness.runningTasks(sessionId),
    settled: () => harness.settled(),
    close: () => harness.close(),
  };
}
