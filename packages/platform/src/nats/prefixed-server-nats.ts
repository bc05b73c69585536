import { ServerNats, type NatsOptions } from '@nestjs/microservices';

type ServerNatsOptions = NonNullable<NatsOptions['options']>;

/**
 * Nest's NATS transport, with every subscribed subject under an installation prefix. Handlers keep
 * their catalog subject (`control.agent.create`); only the wire subject carries the prefix, so two
 * installations (or two test runs) can share one NATS server without hearing each other.
 */
export class PrefixedServerNats extends ServerNats {
  constructor(
    options: ServerNatsOptions,
    private readonly subjectPrefix: string,
  ) {
    super(options);
  }

  override bindEvents(client: any): void {
    // `options` and `subscriptions` are private in the base class; they are the documented extension points.
    const self = this as unknown as { options: ServerNatsOptions; subscriptions: unknown[] };
    const defaultQueue = self.options.queue;
    for (const [channel, handler] of this.messageHandlers) {
      const queue = (handler.extras as { queue?: string } | undefined)?.queue ?? defaultQueue;
      const subscription = client.subscribe(this.subjectPrefix + channel, {
        queue,
        callback: this.getMessageHandler(channel).bind(this),
      });
      self.subscriptions.push(subscription);
    }
  }
}
