import { Inject, Injectable } from '@nestjs/common';
import {
  DataplaneSubjects,
  PubSubjects,
  StoredEventSchema,
  type Actor,
  type StoredEvent,
} from '@agentry/contracts';
import { LOGGER, NatsBus, platformMetrics, RpcClient, type Logger } from '@agentry/platform';
import { GATEWAY_CONFIG, type GatewayEnv } from '../config/env.js';
import type { SseWriter } from './sse-writer.js';

const PAGE = 500;

/**
 * One SSE subscriber. Live events arrive on NATS (`evt.<sessionId>`), which is at-most-once, so the
 * stream tracks the last `seq` it wrote and fills any hole from the event log: no gap, no duplicate.
 * With a resume point (`Last-Event-ID` / `?after=`) it first replays the log after that point.
 */
@Injectable()
export class SessionStreamService {
  constructor(
    private readonly bus: NatsBus,
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(actor: Actor, sessionId: string, after: number | null, writer: SseWriter): Promise<void> {
    let lastSeq = after ?? 0;
    let chain = Promise.resolve();
    const enqueue = (task: () => Promise<void>) => {
      chain = chain.then(task).catch((error: unknown) => {
        this.logger.warn({ sessionId, err: (error as Error).message }, 'sse stream failed; closing');
        writer.end();
      });
    };
    const deliver = async (event: StoredEvent) => {
      if (event.seq <= lastSeq) return;
      if (event.seq > lastSeq + 1) await this.replay(actor, sessionId, lastSeq, event.seq, (e) => (lastSeq = emit(e)));
      if (event.seq > lastSeq) lastSeq = emit(event);
    };
    const emit = (event: StoredEvent): number => {
      writer.event(event);
      return event.seq;
    };

    // The starting point is the first task of the chain, and the subscription exists before it runs,
    // so nothing committed in between is missed.
    enqueue(async () => {
      if (after === null) lastSeq = await this.latestSeq(actor, sessionId);
    });
    const unsubscribe = this.bus.subscribe(PubSubjects.sessionEvents(sessionId), (message) => {
      const parsed = StoredEventSchema.safeParse(message);
      if (parsed.success) platformMetrics().sseFanoutLag.record(Math.max(0, Date.now() - Date.parse(parsed.data.event.created_at)) / 1000);
      if (parsed.success) enqueue(() => deliver(parsed.data));
    });
    const heartbeat = setInterval(() => writer.heartbeat(), this.config.AGENTRY_SSE_HEARTBEAT_MS);
    writer.onClose(() => {
      clearInterval(heartbeat);
      unsubscribe();
    });
    writer.open();
    writer.heartbeat();
    if (after !== null) enqueue(() => this.replay(actor, sessionId, lastSeq, undefined, (e) => (lastSeq = emit(e))));
  }

  /** Writes every logged event with `fromSeq < seq < toSeq` (or to the end), in order. */
  private async replay(
    actor: Actor,
    sessionId: string,
    fromSeq: number,
    toSeq: number | undefined,
    write: (event: StoredEvent) => void,
  ): Promise<void> {
    let cursor = fromSeq;
    for (;;) {
      const page = await this.rpc.request(DataplaneSubjects.listEvents, {
        actor,
        sessionId,
        afterSeq: cursor,
        ...(toSeq ? { beforeSeq: toSeq } : {}),
        limit: PAGE,
        order: 'asc',
      });
      for (const event of page.data) {
        write(event);
        cursor = event.seq;
      }
      if (!page.hasMore || page.data.length === 0) return;
    }
  }

  private async latestSeq(actor: Actor, sessionId: string): Promise<number> {
    const page = await this.rpc.request(DataplaneSubjects.listEvents, { actor, sessionId, limit: 1, order: 'desc' });
    return page.data[0]?.seq ?? 0;
  }
}
