import { Inject, Injectable } from '@nestjs/common';
import { HandsSessionEndedSchema, HandsSubjects, type HandsSessionEnded } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { HandsBroadcastListener } from '../hands/hands-broadcast.listener.js';
import { E2bSessionSandboxes } from './e2b-session-sandboxes.js';

/**
 * Hears that a session was deleted and kills its E2B sandbox. Every worker hears it (no queue group): the
 * one holding the sandbox kills it, and any of them can kill it by its remembered id when none holds it.
 */
@Injectable()
export class SessionEndedListener extends HandsBroadcastListener<HandsSessionEnded> {
  constructor(
    bus: NatsBus,
    private readonly e2b: E2bSessionSandboxes,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(bus, HandsSubjects.sessionEnded, HandsSessionEndedSchema);
  }

  protected override handle({ tenantId, sessionId }: HandsSessionEnded): void {
    this.e2b
      .end(tenantId, sessionId)
      .catch((err: unknown) => this.logger.warn({ sessionId, err }, 'ending the session E2B sandbox failed'));
  }
}
