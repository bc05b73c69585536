import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HandsCancelSchema, HandsSubjects } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { RunningToolCalls } from './running-tool-calls.js';

/**
 * Listens for cancels of tool calls. Every worker hears every cancel (no queue group), since any of
 * them may have taken the call; the one running it aborts it.
 */
@Injectable()
export class HandsCancelListener implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: () => void = () => undefined;

  constructor(
    private readonly bus: NatsBus,
    private readonly running: RunningToolCalls,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe(HandsSubjects.cancel, (message) => {
      const parsed = HandsCancelSchema.safeParse(message);
      if (!parsed.success) return;
      const { sessionId, toolUseId, reason } = parsed.data;
      if (this.running.cancel(toolUseId, reason))
        this.logger.info({ sessionId, toolUseId, reason }, 'tool call cancelled');
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
