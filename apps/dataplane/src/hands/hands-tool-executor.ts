import { setTimeout as sleep } from 'node:timers/promises';
import {
  HandsSubjects,
  READ_ONLY_HANDS_TOOLS,
  type HandsExecResult,
  type SandboxNetworking,
  type SandboxProviderChoice,
  type SessionErrorObject,
  type SessionMount,
} from '@agentry/contracts';
import {
  AGENT_WORKSPACE_TOOL_NAMES,
  inProcessToolExecutor,
  type ExpectedCall,
  type ToolExecutor,
  type ToolInvocation,
  type ToolOutcome,
} from '@agentry/harness';
import { isNoResponders, type RpcClient } from '@agentry/platform';
import { cancelCause, type HandsCanceller } from './hands-cancel.js';
import type { HandsBinding, HandsBindings } from './hands-bindings.js';
import { EarlyBindings } from './early-bindings.js';
import { watchRecordedResult, type RecordedResultLookup } from './recorded-results.js';
import { watchWorker } from './worker-watch.js';

/** One call's sends to its worker: whether any may have reached it, and whether the caller stopped waiting. */
interface Delivery {
  mayHaveRun: boolean;
  stopped: boolean;
}

/** Environment types as the Brain tells them apart: where the session's files and shell live. */
export type HandsKind = 'local' | 'sandbox' | 'remote' | 'self_hosted';

export interface HandsTarget {
  tenantId: string;
  sessionId: string;
  environmentId: string;
  environmentType: HandsKind;
  timeoutMs: number;
  networking: SandboxNetworking;
  /** The environment's sandbox provider (its `sandbox` config); absent, the worker's default decides. */
  sandbox?: SandboxProviderChoice;
  /** The Brain-owned trees the worker mirrors at /mnt for every call. */
  mounts?: SessionMount[];
  /** False: the session lists no vaults, so its commands run without credentials (see HandsExecRequest). */
  vaults?: boolean;
  /** Where the worker's problems preparing the session's resources (a failed clone) go: `session.error` events. */
  reportError?: (error: SessionErrorObject) => Promise<void>;
}

/** `local` and `sandbox` sessions run their file and shell tools in a sandbox on a cluster worker. */
export function runsOnClusterWorker(kind: HandsKind): kind is 'local' | 'sandbox' {
  return kind === 'local' || kind === 'sandbox';
}

/**
 * The Brain never runs file or shell tools of `local` and `sandbox` sessions itself: they go to the
 * cluster worker holding the session (see HandsBindings), on that worker's own subject, or without
 * bindings to the worker pool's queue group; everything else runs here. A call whose worker dies is
 * answered at once as possibly run (at most once), except read-only tools, which run again elsewhere. A
 * call its worker's subject had no listener for (the worker alive but cut off from NATS, or reconnecting)
 * reached no one: it is sent again until the worker takes it, or runs on the next worker should that one
 * die, whatever its tool.
 * When the turn is interrupted or stops waiting, the worker running the call is told to cancel it, and the
 * turn goes on at once rather than waiting for the worker's answer. A turn that lost its lease leaves the
 * call running: the replica that takes the session over waits for it (see `resumeFacts`). A reply lost on
 * the way back (NATS restarting) is made up for by the result the worker recorded before replying.
 */
export class HandsToolExecutor implements ToolExecutor {
  private readonly early: EarlyBindings | undefined;

  constructor(
    private readonly rpc: RpcClient,
    private readonly target: HandsTarget,
    private readonly cancel: HandsCanceller = () => undefined,
    private readonly bindings?: HandsBindings,
    private readonly livenessPollMs = 500,
    /** Where the worker records each result; read while waiting, in case the reply is lost. */
    private readonly recorded?: RecordedResultLookup,
    private readonly recordedPollMs = 1_000,
    /** How often a bound call is sent again while no answer came: see `sendOnce`. */
    private readonly resendMs = 2_000,
  ) {
    this.early = bindings && new EarlyBindings(bindings, target.tenantId, target.sessionId);
  }

  /** The call's binding is looked up while its tool_use is recorded (see EarlyBindings). */
  expect({ toolName, toolCallId }: ExpectedCall): void {
    if (runsOnClusterWorker(this.target.environmentType) && AGENT_WORKSPACE_TOOL_NAMES.has(toolName))
      this.early?.start(toolCallId);
  }

  async execute(invocation: ToolInvocation): Promise<ToolOutcome> {
    const { environmentType } = this.target;
    if (!runsOnClusterWorker(environmentType) || !AGENT_WORKSPACE_TOOL_NAMES.has(invocation.tool.name))
      return inProcessToolExecutor.execute(invocation);
    const { context } = invocation;
    const toolUseId = context.toolCallId;
    if (context.signal.aborted) return cancelled(cancelCause(context.signal.reason));
    let stopWaiting: (outcome: ToolOutcome) => void = () => undefined;
    const aborted = new Promise<ToolOutcome>((resolve) => (stopWaiting = resolve));
    const onAbort = () => {
      const cause = cancelCause(context.signal.reason);
      if (cause !== 'lease_lost') this.cancel({ sessionId: this.target.sessionId, toolUseId, reason: cause });
      stopWaiting(cancelled(cause));
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([this.request(invocation, environmentType), aborted]);
    } finally {
      context.signal.removeEventListener('abort', onAbort);
    }
  }

  private async request(
    invocation: ToolInvocation,
    environmentType: 'local' | 'sandbox',
    retried = false,
  ): Promise<ToolOutcome> {
    if (!this.bindings) return this.send(invocation, environmentType);
    let binding: HandsBinding;
    try {
      binding =
        (await this.early?.take(invocation.context.toolCallId)) ??
        (await this.bindings.bind(this.target.tenantId, this.target.sessionId));
    } catch (error) {
      return unavailable(error);
    }
    const watch = watchWorker(this.bindings, binding.workerId, this.livenessPollMs);
    const delivery: Delivery = { mayHaveRun: false, stopped: false };
    const outcome = await Promise.race([
      this.send(invocation, environmentType, binding, delivery),
      watch.died,
    ]).finally(() => {
      watch.stop();
      delivery.stopped = true;
    });
    if (outcome !== 'died') return outcome;
    const toolUseId = invocation.context.toolCallId;
    // Should the worker only be unreachable, not dead, it must not go on with a call already answered.
    // Addressed to it alone: the worker the call is sent to next must not refuse it.
    this.cancel({
      sessionId: this.target.sessionId,
      toolUseId,
      reason: 'lease_lost',
      workerId: binding.workerId,
    });
    if (invocation.context.signal.aborted) return cancelled(cancelCause(invocation.context.signal.reason));
    // Never received by the dead worker: the call has not run anywhere, so the next worker runs it.
    if (!delivery.mayHaveRun) return this.request(invocation, environmentType, retried);
    if (READ_ONLY_HANDS_TOOLS.has(invocation.tool.name) && !retried)
      return this.request(invocation, environmentType, true);
    return {
      status: 'error',
      content: [
        {
          type: 'text',
          text: `The worker running this ${invocation.tool.name} call stopped before answering: the call may or may not have run, and was not run again`,
        },
      ],
      reason: 'hands_lost',
    };
  }

  private async send(
    invocation: ToolInvocation,
    environmentType: 'local' | 'sandbox',
    binding?: HandsBinding,
    delivery: Delivery = { mayHaveRun: false, stopped: false },
  ): Promise<ToolOutcome> {
    const toolUseId = invocation.context.toolCallId;
    const watch = this.recorded
      ? watchRecordedResult(this.recorded, toolUseId, this.recordedPollMs)
      : undefined;
    // Real time, as the pauses between sends are.
    const deadline = performance.now() + this.target.timeoutMs + 5_000;
    try {
      for (;;) {
        try {
          delivery.mayHaveRun = true;
          return await this.sendOnce(invocation, environmentType, watch, delivery, binding);
        } catch (error) {
          // The worker's subject had no listener: it is alive (else the liveness watch ends this) but cut off
          // from NATS or reconnecting. Nothing ran, so the call is sent again once the worker is back.
          if (
            binding &&
            isNoResponders(error) &&
            !delivery.stopped &&
            !invocation.context.signal.aborted &&
            performance.now() + this.livenessPollMs < deadline
          ) {
            delivery.mayHaveRun = false;
            await sleep(this.livenessPollMs);
            continue;
          }
          // No answer in time: whichever worker may still be running it must not go on unseen.
          if (!invocation.context.signal.aborted)
            this.cancel({ sessionId: this.target.sessionId, toolUseId, reason: 'timeout' });
          return unavailable(error);
        }
      }
    } finally {
      watch?.stop();
    }
  }

  /**
   * One send of the call; rejects as the request does. A call to a bound worker is sent again every
   * `resendMs` while no answer came, since a request can be lost on the way (a link reset under it, the
   * worker reconnecting): the worker runs each call once however many copies reach it (ToolCallsOnce), and
   * whichever answer comes first is taken. A copy that fails is ignored.
   */
  private async sendOnce(
    invocation: ToolInvocation,
    environmentType: 'local' | 'sandbox',
    watch: ReturnType<typeof watchRecordedResult> | undefined,
    delivery: Delivery,
    binding?: HandsBinding,
  ): Promise<ToolOutcome> {
    const toolUseId = invocation.context.toolCallId;
    const subject = binding ? HandsSubjects.execOn(binding.workerId) : HandsSubjects.exec;
    const request = {
      tenantId: this.target.tenantId,
      sessionId: this.target.sessionId,
      environmentId: this.target.environmentId,
      environmentType,
      toolUseId,
      name: invocation.tool.name,
      input: invocation.input,
      timeoutMs: this.target.timeoutMs,
      networking: this.target.networking,
      ...(this.target.sandbox ? { sandbox: this.target.sandbox } : {}),
      mounts: this.target.mounts ?? [],
      ...(binding ? { bindingEpoch: binding.epoch } : {}),
      ...(this.target.vaults === false ? { vaults: false } : {}),
    };
    const replied = this.rpc.request(subject, request, { timeoutMs: this.target.timeoutMs + 5_000 });
    const bindings = this.bindings;
    const copies =
      binding && bindings
        ? resendWhileWaiting(
            () => this.rpc.request(subject, request, { timeoutMs: COPY_TIMEOUT_MS }),
            this.resendMs,
            () => delivery.stopped || invocation.context.signal.aborted,
            () => bindings.takesCopies(binding.workerId),
          )
        : undefined;
    let result: HandsExecResult;
    try {
      result = await Promise.race([
        replied,
        ...(watch ? [watch.recorded] : []),
        ...(copies ? [copies.answered] : []),
      ]);
    } finally {
      copies?.stop();
    }
    for (const error of result.sessionErrors ?? []) await this.target.reportError?.(error);
    return result.isError
      ? { status: 'error', content: result.content, ...(result.reason ? { reason: result.reason } : {}) }
      : { status: 'ok', content: result.content };
  }
}

/** How long a copy of a call waits for its answer; a later copy, the first send or the record takes over. */
const COPY_TIMEOUT_MS = 10_000;

/**
 * Calls `send` every `everyMs` until stopped or `done()`, if `safe()` (asked once, at the first tick) says
 * the receiver runs copies once; `answered` takes the first copy's answer.
 */
function resendWhileWaiting<T>(
  send: () => Promise<T>,
  everyMs: number,
  done: () => boolean,
  safe: () => Promise<boolean>,
): { answered: Promise<T>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let allowed: Promise<boolean> | undefined;
  const answered = new Promise<T>((resolve) => {
    timer = setInterval(() => {
      if (done()) return clearInterval(timer);
      allowed ??= safe().catch(() => false);
      void allowed.then((ok) => {
        if (!ok) clearInterval(timer);
        else if (!done()) send().then(resolve, () => undefined);
      });
    }, everyMs);
  });
  return { answered, stop: () => clearInterval(timer) };
}

function unavailable(error: unknown): ToolOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: 'error',
    content: [{ type: 'text', text: `The tool could not run: ${message}` }],
    reason: 'hands_unavailable',
  };
}

function cancelled(cause: string): ToolOutcome {
  return {
    status: 'error',
    content: [
      {
        type: 'text',
        text: `[cancelled] The tool call was cancelled (${cause}); it may or may not have completed`,
      },
    ],
    reason: 'cancelled',
  };
}
