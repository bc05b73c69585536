import { Inject, Injectable } from '@nestjs/common';
import type { HandsExecRequest, HandsExecResult } from '@agentry/contracts';
import { inProcessToolExecutor } from '@agentry/harness';
import { LOGGER, type Logger } from '@agentry/platform';
import { HandsToolbox } from './hands-toolbox.js';
import { RunningToolCalls } from './running-tool-calls.js';
import { SessionWorkspaces } from './session-workspaces.js';
import { ToolResultCache } from './tool-result-cache.js';

/** Runs one tool call in the session's workdir with the same tool code the harness uses in process. */
@Injectable()
export class HandsExecService {
  constructor(
    private readonly workspaces: SessionWorkspaces,
    private readonly cache: ToolResultCache,
    private readonly toolbox: HandsToolbox,
    private readonly running: RunningToolCalls,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(request: HandsExecRequest): Promise<HandsExecResult> {
    const cached = await this.cache.get(request.toolUseId);
    if (cached) return cached;
    const tool = this.toolbox.get(request.name);
    if (!tool) return failure(request.toolUseId, `Tool ${request.name} is not available in this environment`, 'unknown_tool');
    const fs = await this.workspaces.open(request.tenantId, request.sessionId);
    // Aborted by its timeout, or by a cancel from the turn (interrupt, lost lease) via RunningToolCalls.
    const cancel = this.running.start(request.toolUseId);
    const signal = AbortSignal.any([AbortSignal.timeout(request.timeoutMs), cancel]);
    const outcome = cancel.aborted
      ? undefined
      : await inProcessToolExecutor
          .execute({ tool, input: request.input, context: { toolCallId: request.toolUseId, fs, signal, sessionId: request.sessionId, agentId: '', values: {} } })
          .finally(() => this.running.finish(request.toolUseId));
    if (!outcome || cancel.aborted) return failure(request.toolUseId, `[cancelled] The tool call was cancelled (${String(cancel.reason)}) before it finished`, 'cancelled');
    const text = outcome.status === 'pending' ? [] : outcome.content.flatMap((b) => (b.type === 'text' ? [{ type: 'text' as const, text: b.text }] : []));
    const result: HandsExecResult = {
      toolUseId: request.toolUseId,
      isError: outcome.status !== 'ok',
      content: text,
      ...(outcome.status === 'error' && outcome.reason ? { reason: outcome.reason } : {}),
    };
    await this.cache.put(result);
    this.logger.info({ sessionId: request.sessionId, tool: request.name, isError: result.isError }, 'tool executed');
    return result;
  }
}

function failure(toolUseId: string, text: string, reason: string): HandsExecResult {
  return { toolUseId, isError: true, content: [{ type: 'text', text }], reason };
}
