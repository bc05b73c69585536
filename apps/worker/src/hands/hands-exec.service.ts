import { Inject, Injectable } from '@nestjs/common';
import type { HandsExecRequest, HandsExecResult } from '@agentry/contracts';
import { FILESYSTEM_TOOLS, inProcessToolExecutor, type HarnessTool } from '@agentry/harness';
import { LOGGER, type Logger } from '@agentry/platform';
import { SessionWorkspaces } from './session-workspaces.js';
import { ToolResultCache } from './tool-result-cache.js';

const TOOLS = new Map<string, HarnessTool>(FILESYSTEM_TOOLS.map((t) => [t.name, t]));

/** Runs one tool call in the session's workdir with the same tool code the harness uses in process. */
@Injectable()
export class HandsExecService {
  constructor(
    private readonly workspaces: SessionWorkspaces,
    private readonly cache: ToolResultCache,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(request: HandsExecRequest): Promise<HandsExecResult> {
    const cached = await this.cache.get(request.toolUseId);
    if (cached) return cached;
    const tool = TOOLS.get(request.name);
    if (!tool) return failure(request.toolUseId, `Tool ${request.name} is not available in this environment`, 'unknown_tool');
    const fs = await this.workspaces.open(request.tenantId, request.sessionId);
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const outcome = await inProcessToolExecutor.execute({
      tool,
      input: request.input,
      context: { toolCallId: request.toolUseId, fs, signal: timeout, sessionId: request.sessionId, agentId: '', values: {} },
    });
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
