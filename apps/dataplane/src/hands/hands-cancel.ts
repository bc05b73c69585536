import { HandsSubjects, type HandsCancel } from '@agentry/contracts';
import type { NatsBus } from '@agentry/platform';

export type CancelCause = HandsCancel['reason'];

/** The reason a turn's AbortSignal carries, so the Hands (and logs) learn why a call was stopped. */
export class TurnAborted extends Error {
  constructor(readonly why: CancelCause) {
    super(`turn aborted: ${why}`);
    this.name = 'TurnAborted';
  }
}

/** Why a tool call's signal aborted; anything not stamped by the turn is treated as a timeout. */
export function cancelCause(reason: unknown): CancelCause {
  return reason instanceof TurnAborted ? reason.why : 'timeout';
}

/** Sends the cancel of one tool call to every worker; only the one running it acts on it. */
export type HandsCanceller = (cancel: Omit<HandsCancel, 'v'>) => void;

export function natsHandsCanceller(bus: NatsBus): HandsCanceller {
  return (cancel) => bus.publish(HandsSubjects.cancel, { v: 1, ...cancel });
}
