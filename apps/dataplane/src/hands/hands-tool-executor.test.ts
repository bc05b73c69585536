import { describe, expect, it } from 'vitest';
import type { HandsCancel } from '@agentry/contracts';
import { AGENT_FILE_TOOLS, type ToolInvocation } from '@agentry/harness';
import type { RpcClient } from '@agentry/platform';
import type { WorkspaceFs } from '@agentry/workspace';
import { TurnAborted } from './hands-cancel.js';
import { HandsToolExecutor } from './hands-tool-executor.js';

const target = {
  tenantId: 'ten_1',
  sessionId: 'sesn_1',
  environmentId: 'env_1',
  environmentType: 'local' as const,
  timeoutMs: 60_000,
  networking: { type: 'unrestricted' as const, allowedHosts: [] },
};

/** A worker that took the call and never answers. */
const silentRpc = { request: () => new Promise(() => undefined) } as unknown as RpcClient;

function invocation(signal: AbortSignal): ToolInvocation {
  const tool = AGENT_FILE_TOOLS.find((t) => t.name === 'glob')!;
  return {
    tool,
    input: { pattern: '*' },
    context: {
      toolCallId: 'sevt_call',
      fs: {} as WorkspaceFs,
      signal,
      sessionId: 'sesn_1',
      agentId: 'agent_1',
      values: {},
    },
  };
}

describe('HandsToolExecutor', () => {
  it("sends the environment's sandbox provider with the call, and none when the environment names none", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const recording = {
      request: (_subject: unknown, request: Record<string, unknown>) => {
        sent.push(request);
        return Promise.resolve({ toolUseId: 'sevt_call', isError: false, content: [] });
      },
    } as unknown as RpcClient;
    const sandbox = { provider: 'e2b' as const, template: 'agentry-python' };
    await new HandsToolExecutor(recording, { ...target, sandbox }).execute(
      invocation(new AbortController().signal),
    );
    await new HandsToolExecutor(recording, target).execute(invocation(new AbortController().signal));
    expect(sent[0]).toMatchObject({ sandbox });
    expect(sent[1]).not.toHaveProperty('sandbox');
  });

  it('on abort sends the cancel of that tool_use id with its cause and answers at once, without the worker', async () => {
    const cancels: Omit<HandsCancel, 'v'>[] = [];
    const executor = new HandsToolExecutor(silentRpc, target, (cancel) => cancels.push(cancel));
    const turn = new AbortController();
    const running = executor.execute(invocation(turn.signal));
    turn.abort(new TurnAborted('interrupted'));
    const outcome = await running;
    expect(cancels).toEqual([{ sessionId: 'sesn_1', toolUseId: 'sevt_call', reason: 'interrupted' }]);
    expect(outcome).toMatchObject({ status: 'error', reason: 'cancelled' });
    expect(JSON.stringify(outcome)).toMatch(/cancelled \(interrupted\)/);
  });

  it('names a lost lease as the cause, and sends nothing to the Hands for a call aborted before it started', async () => {
    const cancels: Omit<HandsCancel, 'v'>[] = [];
    const executor = new HandsToolExecutor(silentRpc, target, (cancel) => cancels.push(cancel));
    const lost = new AbortController();
    const running = executor.execute(invocation(lost.signal));
    lost.abort(new TurnAborted('lease_lost'));
    await running;
    expect(cancels.map((c) => c.reason)).toEqual(['lease_lost']);
    const outcome = await executor.execute(invocation(AbortSignal.abort(new TurnAborted('interrupted'))));
    expect(outcome).toMatchObject({ status: 'error', reason: 'cancelled' });
    expect(cancels).toHaveLength(1);
  });

  it('when the worker does not answer in time, cancels the call there too (reason timeout)', async () => {
    const cancels: Omit<HandsCancel, 'v'>[] = [];
    const failing = {
      request: () => Promise.reject(new Error('The hands service did not answer hands.exec.default')),
    } as unknown as RpcClient;
    const outcome = await new HandsToolExecutor(failing, target, (cancel) => cancels.push(cancel)).execute(
      invocation(new AbortController().signal),
    );
    expect(outcome).toMatchObject({ status: 'error', reason: 'hands_unavailable' });
    expect(cancels).toEqual([{ sessionId: 'sesn_1', toolUseId: 'sevt_call', reason: 'timeout' }]);
  });

  it('answers with the result the worker recorded when its reply never arrives, well before the timeout', async () => {
    const recorded = {
      toolUseId: 'sevt_call',
      isError: false,
      content: [{ type: 'text' as const, text: 'a.txt' }],
    };
    let lookups = 0;
    const lookup = async (toolUseId: string) =>
      ++lookups >= 3 && toolUseId === 'sevt_call' ? recorded : null;
    const cancels: Omit<HandsCancel, 'v'>[] = [];
    const executor = new HandsToolExecutor(
      silentRpc,
      target,
      (cancel) => cancels.push(cancel),
      undefined,
      undefined,
      lookup,
      5,
    );
    const outcome = await executor.execute(invocation(new AbortController().signal));
    expect(outcome).toEqual({ status: 'ok', content: [{ type: 'text', text: 'a.txt' }] });
    expect(cancels).toEqual([]);
  });

  it('keeps waiting for the reply while the recorded results cannot be read', async () => {
    const reply = {
      toolUseId: 'sevt_call',
      isError: true,
      content: [{ type: 'text' as const, text: 'no match' }],
      reason: 'not_found',
    };
    let answer: (value: typeof reply) => void = () => undefined;
    const slowRpc = {
      request: () => new Promise((resolve) => (answer = resolve)),
    } as unknown as RpcClient;
    let failedReads = 0;
    const executor = new HandsToolExecutor(
      slowRpc,
      target,
      () => undefined,
      undefined,
      undefined,
      () => {
        // The reply arrives only after the recorded results failed to read twice: waiting went on meanwhile.
        failedReads += 1;
        if (failedReads === 2) answer(reply);
        return Promise.reject(new Error('redis away'));
      },
      5,
    );
    expect(await executor.execute(invocation(new AbortController().signal))).toEqual({
      status: 'error',
      content: [{ type: 'text', text: 'no match' }],
      reason: 'not_found',
    });
  });
});
