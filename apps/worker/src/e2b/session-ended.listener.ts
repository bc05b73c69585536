import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HandsSessionEndedSchema, HandsSubjects } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { E2bSessionSandboxes } from './e2b-session-sandboxes.js';

/**
 * Hears that a session was deleted and kills its E2B sandbox. Every worker hears it (no queue group): the
 * one holding the sandbox kills it, and any of them can kill it by its remembered id when none holds it.
 */
@Injectable()
export class SessionEndedListener implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: () => void = () => undefined;

  constructor(
    private readonly bus: NatsBus,
    private readonly e2b: E2bSessionSandboxes,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe(HandsSubjects.sessionEnded, (message) => {
      const parsed = HandsSessionEndedSchema.safeParse(message);
      if (!parsed.success) return;
      const { tenantId, sessionId } = parsed.data;
      this.e2b
        .end(tenantId, sessionId)
        .catch((err: unknown) =>
          this.logger.warn({ sessionId, err }, 'ending the session E2B sandbox failed'),
        );
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
