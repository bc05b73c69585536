import { ClientNats, type NatsOptions } from '@nestjs/microservices';

type ClientNatsOptions = NonNullable<NatsOptions['options']>;

/** Client side of {@link PrefixedServerNats}: publishes under the same installation prefix. */
export class PrefixedClientNats extends ClientNats {
  constructor(
    options: ClientNatsOptions,
    private readonly subjectPrefix: string,
  ) {
    super(options);
  }

  protected override normalizePattern(pattern: unknown): string {
    return this.subjectPrefix + super.normalizePattern(pattern as string);
  }
}
