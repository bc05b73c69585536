import { Inject, Injectable } from '@nestjs/common';
import { HandsSessionEndedSchema, HandsSubjects, type HandsSessionEnded } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { HandsBroadcastListener } from '../hands/hands-broadcast.listener.js';
import { SessionFilesCleanup } from './session-files-cleanup.js';

/**
 * Hears that a session was deleted and removes its files: every worker hears it (no queue group) and removes
 * its own directory of the session; the durable copy is removed by whichever gets there first.
 */
@Injectable()
export class SessionFilesEndedListener extends HandsBroadcastListener<HandsSessionEnded> {
  constructor(
    bus: NatsBus,
    private readonly cleanup: SessionFilesCleanup,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(bus, HandsSubjects.sessionEnded, HandsSessionEndedSchema);
  }

  protected override handle({ tenantId, sessionId }: HandsSessionEnded): void {
    this.cleanup
      .removeSession(tenantId, sessionId)
      .then(() => this.logger.info({ sessionId }, 'deleted session files removed'))
      .catch((err: unknown) =>
        this.logger.warn(
          { sessionId, err },
          'removing the files of a deleted session failed; the sweep retries',
        ),
      );
  }
}
