import type { ExpectedCall, ToolExecutor, ToolInvocation, ToolOutcome } from '@agentry/harness';
import {
  platformMetrics,
  secondsSince,
  startChildSpan,
  toolLabel,
  withSpan,
  type Logger,
} from '@agentry/platform';

/**
 * Wraps where tools run (the Hands over NATS, or this process) with an `execute_tool <name>` span and
 * the tool latency metric, labelled by tool and environment type, and its time in the debug log.
 */
export class InstrumentedToolExecutor implements ToolExecutor {
  constructor(
    private readonly inner: ToolExecutor,
    private readonly environmentType: string,
    /** Each call's round trip as the Brain waits for it, at debug level ("tool call round trip"). */
    private readonly logger?: Logger,
  ) {}

  expect(call: ExpectedCall): void {
    this.inner.expect?.(call);
  }

  async execute(invocation: ToolInvocation): Promise<ToolOutcome> {
    const name = invocation.tool.name;
    const span = startChildSpan(`execute_tool ${name}`, 'internal', {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': invocation.context.toolCallId,
      'agentry.environment.type': this.environmentType,
    });
    const started = performance.now();
    let outcome = 'error';
    try {
      const result = await withSpan(span, () => this.inner.execute(invocation));
      outcome = result.status;
      if (result.status === 'error') span.setAttribute('error.type', result.reason ?? 'tool_error');
      return result;
    } finally {
      this.logger?.debug({ tool: name, ms: performance.now() - started, outcome }, 'tool call round trip');
      platformMetrics().toolDuration.record(secondsSince(started), {
        'gen_ai.tool.name': toolLabel(name),
        environment_type: this.environmentType,
        outcome,
      });
      span.end();
    }
  }
}
