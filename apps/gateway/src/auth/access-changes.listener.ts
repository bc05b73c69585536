import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AccessChangedSchema, PubSubjects } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { ActorCache } from './actor-cache.js';

/**
 * Keeps the actor cache honest: drops what control says changed, and everything after a NATS
 * reconnection, because changes published while this replica was disconnected never arrive.
 */
@Injectable()
export class AccessChangesListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop: Array<() => void> = [];

  constructor(
    private readonly bus: NatsBus,
    @Inject(ActorCache) private readonly cache: ActorCache,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = [
      this.bus.subscribe(PubSubjects.accessChanged, (message) => {
        const change = AccessChangedSchema.safeParse(message);
        if (change.success) this.cache.forget(change.data);
        else this.cache.clear();
      }),
      this.bus.onReconnect(() => {
        this.logger.info({ cached: this.cache.size }, 'nats reconnected; dropping cached actors');
        this.cache.clear();
      }),
    ];
    await this.bus.flush();
  }

  onApplicationShutdown(): void {
    for (const stop of this.stop) stop();
  }
}
