import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { NatsBus } from '@agentry/platform';
import type { z } from 'zod';

/**
 * Hears a Hands subject for the module's life on every worker (no queue group: any of them may hold what
 * the message is about) and hands each message that parses to `handle`; others are dropped.
 */
export abstract class HandsBroadcastListener<Message> implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: () => void = () => undefined;

  protected constructor(
    private readonly bus: NatsBus,
    private readonly subject: string,
    private readonly schema: z.ZodType<Message>,
  ) {}

  protected abstract handle(message: Message): void;

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe(this.subject, (message) => {
      const parsed = this.schema.safeParse(message);
      if (parsed.success) this.handle(parsed.data);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
