import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PubSubjects } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

type Waiter = () => void;

/**
 * Wakes long polls when work is queued for their environment (`work.<environmentId>`, published by
 * whoever queues it). One subscription per replica; NATS is at-most-once, so waits are also bounded
 * and the poll simply tries again.
 */
@Injectable()
export class WorkWakeups implements OnModuleInit, OnModuleDestroy {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly bus: NatsBus) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe(PubSubjects.environmentWork('*'), (payload) => {
      const environmentId = (payload as { environmentId?: unknown } | null)?.environmentId;
      if (typeof environmentId !== 'string') return;
      for (const wake of this.waiters.get(environmentId) ?? []) wake();
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  announce(environmentId: string, workId: string): void {
    this.bus.publish(PubSubjects.environmentWork(environmentId), { environmentId, workId });
  }

  /** Polls of the environment now parked here, waiting to be woken. */
  waiting(environmentId: string): number {
    return this.waiters.get(environmentId)?.size ?? 0;
  }

  /** Resolves when work is announced for the environment, or after `ms`. */
  wait(environmentId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(environmentId) ?? new Set<Waiter>();
      this.waiters.set(environmentId, set);
      const done: Waiter = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) this.waiters.delete(environmentId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }
}
