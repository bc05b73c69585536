import { describe, expect, it } from 'vitest';
import type { HandsCancel } from '@agentry/contracts';
import { AGENT_FILE_TOOLS, type ToolInvocation } from '@agentry/harness';
import { AppError } from '@agentry/contracts';
import type { RpcClient } from '@agentry/platform';
import type { WorkspaceFs } from '@agentry/workspace';
import type { HandsBindings } from './hands-bindings.js';
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

function invocation(signal: AbortSignal, toolName = 'glob'): ToolInvocation {
  const tool = AGENT_FILE_TOOLS.find((t) => t.name === toolName)!;
  return {
    tool,
    input: toolName === 'glob' ? { pattern: '*' } : { file_path: 'a.txt', content: 'a' },
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

/** An RPC client that answers every call at once and keeps the requests it was sent. */
function recordingRpc() {
  const sent: Array<Record<string, unknown>> = [];
  const recording = {
    request: (_subject: unknown, request: Record<string, unknown>) => {
      sent.push(request);
      return Promise.resolve({ toolUseId: 'sevt_call', isError: false, content: [] });
    },
  } as unknown as RpcClient;
  return { sent, recording };
}

describe('HandsToolExecutor', () => {
  it("sends the environment's sandbox provider with the call, and none when the environment names none", async () => {
    const { sent, recording } = recordingRpc();
    const sandbox = { provider: 'e2b' as const, template: 'agentry-python' };
    await new HandsToolExecutor(recording, { ...target, sandbox }).execute(
      invocation(new AbortController().signal),
    );
    await new HandsToolExecutor(recording, target).execute(invocation(new AbortController().signal));
    expect(sent[0]).toMatchObject({ sandbox });
    expect(sent[1]).not.toHaveProperty('sandbox');
  });

  it('tells the worker a session lists no vaults, and says nothing when that is not known', async () => {
    const { sent, recording } = recordingRpc();
    for (const vaults of [false, true, undefined])
      await new HandsToolExecutor(recording, {
        ...target,
        ...(vaults === undefined ? {} : { vaults }),
      }).execute(invocation(new AbortController().signal));
    expect(sent.map((request) => request.vaults)).toEqual([false, undefined, undefined]);
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

  it('leaves the call running at the worker when the turn loses its lease: the replica taking over waits for it', async () => {
    const cancels: Omit<HandsCancel, 'v'>[] = [];
    const executor = new HandsToolExecutor(silentRpc, target, (cancel) => cancels.push(cancel));
    const lost = new AbortController();
    const running = executor.execute(invocation(lost.signal));
    lost.abort(new TurnAborted('lease_lost'));
    expect(await running).toMatchObject({ status: 'error', reason: 'cancelled' });
    expect(cancels).toEqual([]);
  });

  it('sends nothing to the Hands for a call aborted before it started', async () => {
    const cancels: Omit<HandsCancel, 'v'>[] = [];
    const executor = new HandsToolExecutor(silentRpc, target, (cancel) => cancels.push(cancel));
    const outcome = await executor.execute(invocation(AbortSignal.abort(new TurnAborted('interrupted'))));
    expect(outcome).toMatchObject({ status: 'error', reason: 'cancelled' });
    expect(cancels).toEqual([]);
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
    const lookup = (toolUseId: string) =>
      Promise.resolve(++lookups >= 3 && toolUseId === 'sevt_call' ? recorded : null);
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

  describe('a call whose worker had no listener on its subject (alive, but cut off from NATS)', () => {
    /** As the RPC client reports a request NATS answered with "no responders". */
    const noResponders = (subject: string) =>
      new AppError('UNAVAILABLE', `The hands service did not answer ${subject}`, {
        cause: Object.assign(new Error('no responders'), {
          name: 'RequestError',
          cause: noRespondersCause(),
        }),
      });
    const noRespondersCause = () => Object.assign(new Error('no responders'), { name: 'NoResponders' });
    const answer = {
      toolUseId: 'sevt_call',
      isError: false,
      content: [{ type: 'text' as const, text: 'ok' }],
    };

    /** Bindings to the given workers in turn, each alive while `alive` says so. */
    function bindingsOf(workers: string[], alive: (workerId: string) => boolean, takesCopies = true) {
      let bound = 0;
      return {
        bind: () =>
          Promise.resolve({ workerId: workers[Math.min(bound++, workers.length - 1)]!, epoch: bound }),
        isAlive: (workerId: string) => Promise.resolve(alive(workerId)),
        takesCopies: () => Promise.resolve(takesCopies),
      } as unknown as HandsBindings;
    }

    it('sends the call by the binding looked up while its tool_use was recorded, without a second lookup', async () => {
      const { sent, recording } = recordingRpc();
      let binds = 0;
      const bindings = {
        ...bindingsOf(['w1'], () => true),
        bind: () => {
          binds += 1;
          return Promise.resolve({ workerId: 'w1', epoch: 7 });
        },
      } as unknown as HandsBindings;
      const executor = new HandsToolExecutor(recording, target, () => undefined, bindings, 5);
      executor.expect({ toolName: 'write', toolCallId: 'sevt_call' });
      expect(binds).toBe(1);
      await executor.execute(invocation(new AbortController().signal, 'write'));
      expect(binds).toBe(1);
      expect(sent[0]).toMatchObject({ bindingEpoch: 7 });
      // A tool the Brain runs itself needs no binding.
      executor.expect({ toolName: 'web_fetch', toolCallId: 'sevt_other' });
      expect(binds).toBe(1);
    });

    it('is sent again until its worker listens, and runs there once: a write is not answered as failed', async () => {
      const sent: string[] = [];
      const rpc = {
        request: (subject: { subject: string }) => {
          sent.push(subject.subject);
          return sent.length < 4 ? Promise.reject(noResponders(subject.subject)) : Promise.resolve(answer);
        },
      } as unknown as RpcClient;
      const cancels: unknown[] = [];
      const executor = new HandsToolExecutor(
        rpc,
        target,
        (cancel) => cancels.push(cancel),
        bindingsOf(['w1'], () => true),
        5,
      );
      const outcome = await executor.execute(invocation(new AbortController().signal, 'write'));
      expect(outcome).toEqual({ status: 'ok', content: [{ type: 'text', text: 'ok' }] });
      expect(sent).toEqual(Array(4).fill('hands.exec.worker.w1'));
      expect(cancels).toEqual([]);
    });

    it('runs on the next worker when its worker dies before ever receiving it, whatever the tool', async () => {
      const sent: string[] = [];
      const cancels: unknown[] = [];
      let w1Alive = true;
      const rpc = {
        request: (subject: { subject: string }) => {
          sent.push(subject.subject);
          if (subject.subject.endsWith('w2')) return Promise.resolve(answer);
          if (sent.length === 3) w1Alive = false;
          return Promise.reject(noResponders(subject.subject));
        },
      } as unknown as RpcClient;
      const executor = new HandsToolExecutor(
        rpc,
        target,
        (cancel) => cancels.push(cancel),
        bindingsOf(['w1', 'w2'], (id) => id !== 'w1' || w1Alive),
        5,
      );
      const outcome = await executor.execute(invocation(new AbortController().signal, 'write'));
      expect(outcome).toEqual({ status: 'ok', content: [{ type: 'text', text: 'ok' }] });
      expect(sent.at(-1)).toBe('hands.exec.worker.w2');
      expect(sent.filter((s) => s.endsWith('w2'))).toHaveLength(1);
      // The dead worker is told to drop the call, and only it: w2, which every worker's cancel reaches too,
      // must not refuse the call sent to it next.
      expect(cancels).toEqual([
        { sessionId: 'sesn_1', toolUseId: 'sevt_call', reason: 'lease_lost', workerId: 'w1' },
      ]);
    });

    it('is still answered as possibly run when its worker dies after a send that may have reached it', async () => {
      let w1Alive = true;
      const rpc = {
        request: (subject: { subject: string }) => {
          if (subject.subject.endsWith('w2')) return Promise.resolve(answer);
          w1Alive = false;
          return new Promise(() => undefined); // taken, never answered
        },
      } as unknown as RpcClient;
      const executor = new HandsToolExecutor(
        rpc,
        target,
        () => undefined,
        bindingsOf(['w1', 'w2'], (id) => id !== 'w1' || w1Alive),
        5,
      );
      const outcome = await executor.execute(invocation(new AbortController().signal, 'write'));
      expect(outcome).toMatchObject({ status: 'error', reason: 'hands_lost' });
    });

    it('sends a call again while no answer comes, so a request lost on the way is answered by a copy', async () => {
      const sent: Array<{ subject: string; timeoutMs: number }> = [];
      const rpc = {
        request: (subject: { subject: string }, _request: unknown, options: { timeoutMs: number }) => {
          sent.push({ subject: subject.subject, timeoutMs: options.timeoutMs });
          // The first request is lost (never answered); the worker answers the second copy.
          return sent.length === 3 ? Promise.resolve(answer) : new Promise(() => undefined);
        },
      } as unknown as RpcClient;
      const executor = new HandsToolExecutor(
        rpc,
        target,
        () => undefined,
        bindingsOf(['w1'], () => true),
        5,
        undefined,
        undefined,
        5,
      );
      const outcome = await executor.execute(invocation(new AbortController().signal, 'write'));
      expect(outcome).toEqual({ status: 'ok', content: [{ type: 'text', text: 'ok' }] });
      expect(sent.map((s) => s.subject)).toEqual(Array(3).fill('hands.exec.worker.w1'));
      expect(sent[0]!.timeoutMs).toBe(target.timeoutMs + 5_000);
    });

    it('sends no copy to a worker that does not run copies once (an older release), and waits for its record', async () => {
      let sent = 0;
      const rpc = {
        request: () => {
          sent += 1;
          return new Promise(() => undefined); // the reply is lost
        },
      } as unknown as RpcClient;
      let lookups = 0;
      const recorded = () => Promise.resolve(++lookups >= 20 ? answer : null);
      const executor = new HandsToolExecutor(
        rpc,
        target,
        () => undefined,
        bindingsOf(['w1'], () => true, false),
        5,
        recorded,
        5,
        5,
      );
      const outcome = await executor.execute(invocation(new AbortController().signal, 'write'));
      expect(outcome).toEqual({ status: 'ok', content: [{ type: 'text', text: 'ok' }] });
      expect(lookups).toBeGreaterThanOrEqual(20);
      expect(sent).toBe(1);
    });
  });
});
