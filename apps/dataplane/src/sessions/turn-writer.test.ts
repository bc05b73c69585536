import { describe, expect, it } from 'vitest';
import type { EventPublisher } from '../event-log/event-publisher.js';
import type { EventRow } from '../event-log/event-row.js';
import type { NewEvent, SessionEventsRepository } from '../event-log/session-events.repository.js';
import { TurnWriter } from './turn-writer.js';

/** A log that hands out seqs as Postgres would, with `appendElsewhere` standing for another writer. */
function logFrom(lastSeq: number) {
  let seq = lastSeq;
  const rows = (events: NewEvent[]): EventRow[] =>
    events.map((e) => ({ ...e, seq: ++seq, processedAt: new Date(0), createdAt: new Date(0) }));
  const events = {
    appendWithTransition: (_s: string, _l: unknown, _c: unknown, batch: NewEvent[]) =>
      Promise.resolve(rows(batch)),
    append: (_s: string, _g: unknown, batch: NewEvent[]) => Promise.resolve(rows(batch)),
  } as unknown as SessionEventsRepository;
  const publisher = { previews: () => ({ flush: () => undefined }), published: () => undefined };
  return { events, publisher: publisher as unknown as EventPublisher, appendElsewhere: () => ++seq };
}

const lease = { sessionId: 'sesn_1', tenantId: 'ten_1', token: 1n };

describe('a turn writer knows whether anything else was appended since the log the turn read', () => {
  it('is alone while each of its commits follows the one before', async () => {
    const log = logFrom(10);
    const writer = new TurnWriter(log.events, log.publisher, lease, undefined, 10);
    await writer.start(['idle'], 'running', { type: 'session.status_running' }, ['sevt_in'], 10);
    await writer.emit({ type: 'span.model_request_start' });
    await writer.finish(['running'], 'idle', { type: 'session.status_idle' }, { release: true });
    expect(writer.alone).toBe(true);
    expect([...writer.consumed]).toEqual(['sevt_in']);
    expect(writer.committed.map((e) => e.seq)).toEqual([11, 12, 13]);
  });

  it('is not once another append landed between two of its commits', async () => {
    const log = logFrom(10);
    const writer = new TurnWriter(log.events, log.publisher, lease, undefined, 10);
    await writer.start(['idle'], 'running', { type: 'session.status_running' }, [], 10);
    log.appendElsewhere();
    await writer.finish(['running'], 'idle', { type: 'session.status_idle' }, { release: true });
    expect(writer.alone).toBe(false);
  });

  it('does not claim it without knowing where the log stood', async () => {
    const log = logFrom(10);
    const writer = new TurnWriter(log.events, log.publisher, lease);
    await writer.finish(['running'], 'idle', { type: 'session.status_idle' }, { release: true });
    expect(writer.alone).toBe(false);
  });
});
