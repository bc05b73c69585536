import { Inject, Injectable } from '@nestjs/common';
import { HandsCancelSchema, HandsSubjects, type HandsCancel } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { HandsBroadcastListener } from './hands-broadcast.listener.js';
import { RunningToolCalls } from './running-tool-calls.js';
import { WORKER_ID } from './worker-identity.js';

/**
 * Listens for cancels of tool calls. Every worker hears every cancel (no queue group), since any of
 * them may have taken the call; the one running it aborts it. A cancel naming a worker is for that one.
 */
@Injectable()
export class HandsCancelListener extends HandsBroadcastListener<HandsCancel> {
  constructor(
    bus: NatsBus,
    private readonly running: RunningToolCalls,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(bus, HandsSubjects.cancel, HandsCancelSchema);
  }

  protected override handle({ sessionId, toolUseId, reason, workerId }: HandsCancel): void {
    if (workerId !== undefined && workerId !== WORKER_ID) return;
    if (this.running.cancel(toolUseId, reason))
      this.logger.info({ sessionId, toolUseId, reason }, 'tool call cancelled');
  }
}
