import type { PersistedHarnessEvent } from './harness-events.js';
import type { Clock, IdGenerator } from './ports.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type EventBody = DistributiveOmit<PersistedHarnessEvent, 'id' | 'created_at'>;

/** Stamps persisted events with a stable id and the clock's time. */
export class EventFactory {
  constructor(
    private readonly nextId: IdGenerator,
    private readonly clock: Clock,
  ) {}

  newId(): string {
    return this.nextId();
  }

  make<T extends EventBody>(body: T, id: string = this.nextId()): T & { id: string; created_at: string } {
    return { id, created_at: this.clock.now().toISOString(), ...body };
  }
}
