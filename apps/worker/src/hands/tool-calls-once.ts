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
export class ToolCallsOnce {
  private readonly calls = new Map<string, { result: Promise<HandsExecResult>; endedAt?: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  run(
    toolUseId: string,
    start: () => Promise<HandsExecResult>,
    keep: (result: HandsExecResult) => boolean = () => true,
  ): Promise<HandsExecResult> {
    const known = this.calls.get(toolUseId);
    if (known) return known.result;
    this.forgetEnded();
    const entry: { result: Promise<HandsExecResult>; endedAt?: number } = { result: start() };
    this.calls.set(toolUseId, entry);
    entry.result.then(
      (result) => {
        if (keep(result)) entry.endedAt = this.now();
        else this.calls.delete(toolUseId);
      },
      // A call that threw is forgotten: nothing ran to completion, and a copy may try again.
      () => this.calls.delete(toolUseId),
    );
    return entry.result;
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
