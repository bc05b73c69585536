import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PubSubjects, StoredEventSchema } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

type Listener = (eventId: string) => void;

/**
 * Tells a running turn that its session was interrupted (`interrupt.<sessionId>` on NATS). One
 * subscription per replica, made at start: a turn's watch is then live the moment it is asked for, and a
 * turn costs the NATS server no subscribe and unsubscribe of its own (each of which also resets the
 * server's subject cache).
 */
@Injectable()
export class SessionInterrupts implements OnModuleInit, OnModuleDestroy {
  private readonly listeners = new Map<string, Set<Listener>>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly bus: NatsBus) {}

  onModuleInit(): void {
    const subjectPrefix = PubSubjects.sessionInterrupt('');
    this.unsubscribe = this.bus.subscribe(PubSubjects.sessionInterrupt('*'), (message, subject) => {
      const listeners = this.listeners.get(subject.slice(subjectPrefix.length));
      if (!listeners) return;
      const parsed = StoredEventSchema.safeParse(message);
      if (!parsed.success || parsed.data.event.type !== 'user.interrupt') return;
      for (const listener of listeners) listener(parsed.data.event.id);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /**
   * Calls `onInterrupt` with the id of each `user.interrupt` appended to the session until the
   * returned function is called.
   */
  watch(sessionId: string, onInterrupt: Listener): () => void {
    const listeners = this.listeners.get(sessionId) ?? new Set<Listener>();
    this.listeners.set(sessionId, listeners);
    listeners.add(onInterrupt);
    return () => {
      listeners.delete(onInterrupt);
      if (listeners.size === 0 && this.listeners.get(sessionId) === listeners)
        this.listeners.delete(sessionId);
    };
  }
}
