import type { StoredEvent } from '@agentry/contracts';
import type { SessionRuntime } from '../agent-harness/harness-factory.js';
import type { LeasedTurn } from '../drain/session-drain.js';
import type { TurnAbort } from './turn-abort.js';

export interface SessionSpec {
  agent: SessionRuntime['agent'];
  environment: { id: string; type: string; config?: Record<string, unknown> };
}

/** One turn as it passes through the pipeline's stages: its lease, its input, its log, its writer. */
export interface Turn extends LeasedTurn {
  spec: SessionSpec;
  /** The inbox events this turn acts on and consumes as it starts. */
  input: StoredEvent[];
  /** The session was mid-turn when the lease was taken: a cut-off turn resumes here. */
  resumed: boolean;
  selfHosted: boolean;
  abort: TurnAbort;
}
