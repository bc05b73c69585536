import type { HandsExecResult } from '@agentry/contracts';

/** How long a call's result is kept after it ended, for copies of its request still on their way. */
const KEEP_AFTER_END_MS = 120_000;

/**
 * Each tool call runs once on this worker however many copies of its request arrive: the Brain sends a
 * call again while it waits (a request can be lost on a cut link), so a copy that arrives while the call
 * runs waits for its result. After it ended, a result `keep` picks is given to later copies for two
 * minutes (one recorded nowhere else whose call must not run again, e.g. a cancelled one); any other is
 * forgotten (a recorded one is found in the record, and one whose call never ran may run on a copy).
 */
interface Call {
  result: Promise<HandsExecResult>;
  endedAt?: number;
  /** Settles once the result is recorded (see `holdUntil`); until then a result not kept is not forgotten. */
  held?: Promise<unknown>;
}

export class ToolCallsOnce {
  private readonly calls = new Map<string, Call>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  run(
    toolUseId: string,
    start: () => Promise<HandsExecResult>,
    keep: (result: HandsExecResult) => boolean = () => true,
  ): Promise<HandsExecResult> {
    const known = this.calls.get(toolUseId);
    if (known) return known.result;
    this.forgetEnded();
    // Known before the call starts, so the call can hold its result (`holdUntil`) from its first step.
    let started: (result: Promise<HandsExecResult>) => void = () => undefined;
    const entry: Call = { result: new Promise((resolve) => (started = resolve)) };
    this.calls.set(toolUseId, entry);
    started(start());
    const forget = () => {
      if (this.calls.get(toolUseId) === entry) this.calls.delete(toolUseId);
    };
    entry.result.then(
      (result) => {
        if (keep(result)) entry.endedAt = this.now();
        else if (entry.held) void entry.held.finally(forget);
        else forget();
      },
      // A call that threw is forgotten: nothing ran to completion, and a copy may try again.
      () => this.calls.delete(toolUseId),
    );
    return entry.result;
  }

  /**
   * The call's result is being recorded (beside its reply): a copy arriving before `recorded` settles gets the
   * result from here, since the record cannot answer it yet. Called while the call runs, before it answers.
   */
  holdUntil(toolUseId: string, recorded: Promise<unknown>): void {
    const entry = this.calls.get(toolUseId);
    if (entry) entry.held = recorded;
  }

  /** The result of the call if it runs or is kept, for a copy of its request. */
  known(toolUseId: string): Promise<HandsExecResult> | undefined {
    return this.calls.get(toolUseId)?.result;
  }

  private forgetEnded(): void {
    const now = this.now();
    for (const [id, call] of this.calls)
      if (call.endedAt !== undefined && now - call.endedAt > KEEP_AFTER_END_MS) this.calls.delete(id);
  }
}
