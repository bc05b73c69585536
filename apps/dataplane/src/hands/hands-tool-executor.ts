import { HandsSubjects, type HandsExecRequest } from '@agentry/contracts';
import { FILESYSTEM_TOOLS, inProcessToolExecutor, type ToolExecutor, type ToolInvocation, type ToolOutcome } from '@agentry/harness';
import type { RpcClient } from '@agentry/platform';

/** Tools that touch the session's files or shell: they run where the environment says (the Hands). */
export const HANDS_TOOLS = new Set([...FILESYSTEM_TOOLS.map((t) => t.name), 'execute']);

export interface HandsTarget {
  tenantId: string;
  sessionId: string;
  environmentId: string;
  environmentType: HandsExecRequest['environmentType'];
  timeoutMs: number;
}

/**
 * The Brain never runs file or shell tools itself: for `local` and `sandbox` environments they go to
 * the cluster worker pool over NATS (queue group, so any worker answers); everything else runs here.
 */
export class HandsToolExecutor implements ToolExecutor {
  constructor(
    private readonly rpc: RpcClient,
    private readonly target: HandsTarget,
  ) {}

  async execute(invocation: ToolInvocation): Promise<ToolOutcome> {
    if (!HANDS_TOOLS.has(invocation.tool.name)) return inProcessToolExecutor.execute(invocation);
    const { context } = invocation;
    try {
      const result = await this.rpc.request(
        HandsSubjects.exec,
        {
          tenantId: this.target.tenantId,
          sessionId: this.target.sessionId,
          environmentId: this.target.environmentId,
          environmentType: this.target.environmentType,
          toolUseId: context.toolCallId,
          name: invocation.tool.name,
          input: invocation.input,
          timeoutMs: this.target.timeoutMs,
        },
        { timeoutMs: this.target.timeoutMs + 5_000 },
      );
      return result.isError
        ? { status: 'error', content: result.content, ...(result.reason ? { reason: result.reason } : {}) }
        : { status: 'ok', content: result.content };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { status: 'error', content: [{ type: 'text', text: `The tool could not run: ${message}` }], reason: 'hands_unavailable' };
    }
  }
}
