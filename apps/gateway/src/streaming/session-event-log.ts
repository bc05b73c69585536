import { Injectable } from '@nestjs/common';
import { DataplaneSubjects, type Actor, type EventPage } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';

/** The session's event log as the stream reads it: the source of truth behind at-most-once NATS. */
@Injectable()
export class SessionEventLog {
  constructor(private readonly rpc: RpcClient) {}

  async latestSeq(actor: Actor, sessionId: string): Promise<number> {
    const page = await this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      limit: 1,
      order: 'desc',
    });
    return page.data[0]?.seq ?? 0;
  }

  /** Events with `afterSeq < seq` (and `< beforeSeq` when given), oldest first. */
  page(
    actor: Actor,
    sessionId: string,
    afterSeq: number,
    limit: number,
    beforeSeq?: number,
  ): Promise<EventPage> {
    return this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      afterSeq,
      limit,
      order: 'asc',
      ...(beforeSeq ? { beforeSeq } : {}),
    });
  }
}
