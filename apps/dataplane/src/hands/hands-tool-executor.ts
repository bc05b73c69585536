import { HandsSubjects, type SandboxNetworking } from '@agentry/contracts';
import { AGENT_WORKSPACE_TOOL_NAMES, inProcessToolExecutor, type ToolExecutor, type ToolInvocation, type ToolOutcome } from '@agentry/harness';
import type { RpcClient } from '@agentry/platform';

/** Environment types as the Brain tells them apart: where the session's files and shell live. */
export type HandsKind = 'local' | 'sandbox' | 'remote' | 'self_hosted';

export interface HandsTarget {
  tenantId: string;
  sessionId: string;
  environmentId: string;
  environmentType: HandsKind;
  timeoutMs: number;
  networking: SandboxNetworking;
}

/** `local` and `sandbox` sessions run their file and shell tools in a sandbox on a cluster worker. */
export function runsOnClusterWorker(kind: HandsKind): kind is 'local' | 'sandbox' {
  return kind === 'local' || kind === 'sandbox';
}

/**
 * The Brain never runs file or shell tools of `local` and `sandbox` sessions itself: they go to the
 * cluster worker pool over NATS (queue group, so any worker answers); everything else runs here.
 */
export class HandsToolExecutor implements ToolExecutor {
  constructor(
    private readonly rpc: RpcClient,
    private readonly target: HandsTarget,
  ) {}

  async execute(invocation: ToolInvocation): Promise<ToolOutcome> {
    const { environmentType } = this.target;
    if (!runsOnClusterWorker(environmentType) || !AGENT_WORKSPACE_TOOL_NAMES.has(invocation.tool.name)) return inProcessToolExecutor.execute(invocation);
    const { context } = invocation;
    try {
      const result = await this.rpc.request(
        HandsSubjects.exec,
        {
          tenantId: this.target.tenantId,
          sessionId: this.target.sessionId,
          environmentId: this.target.environmentId,
          environmentType,
          toolUseId: context.toolCallId,
          name: invocation.tool.name,
          input: invocation.input,
          timeoutMs: this.target.timeoutMs,
          networking: this.target.networking,
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
