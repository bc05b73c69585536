import { describe, expect, it } from 'vitest';
import type { EventPublisher } from '../event-log/event-publisher.js';
import type { EventRow } from '../event-log/event-row.js';
import type { NewEvent, SessionEventsRepository } from '../event-log/session-events.repository.js';
import { TurnStartRefused, TurnWriter } from './turn-writer.js';

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

/** A log whose statements are recorded; `refuseTransitions` answers every status change as moved. */
function recordedLog(refuseTransitions = false) {
  const statements: Array<{ kind: string; types: string[]; change?: unknown }> = [];
  let seq = 10;
  const rows = (events: NewEvent[]): EventRow[] =>
    events.map((e) => ({ ...e, seq: ++seq, processedAt: new Date(0), createdAt: new Date(0) }));
  const events = {
    appendWithTransition: (_s: string, _l: unknown, change: unknown, batch: NewEvent[]) => {
      statements.push({ kind: 'transition', types: batch.map((e) => e.type), change });
      return Promise.resolve(refuseTransitions ? null : rows(batch));
    },
    append: (_s: string, _g: unknown, batch: NewEvent[]) => {
      statements.push({ kind: 'append', types: batch.map((e) => e.type) });
      return Promise.resolve(rows(batch));
    },
  } as unknown as SessionEventsRepository;
  const published: string[] = [];
  const publisher = {
    previews: () => ({ flush: () => undefined }),
    published: (_s: string, stored: Array<{ event: { type: string } }>) =>
      published.push(...stored.map((e) => e.event.type)),
  } as unknown as EventPublisher;
  return { events, publisher, statements, published };
}

describe('a start held for the first write', () => {
  const running = { type: 'session.status_running' };

  it('goes out with the first barrier, in one statement that checks the log had not moved', async () => {
    const log = recordedLog();
    const writer = new TurnWriter(log.events, log.publisher, lease, undefined, 10);
    writer.startWithFirstWrite(['idle'], 'running', running, ['sevt_in'], 10);
    expect(log.statements).toEqual([]);
    await writer.emit({ type: 'span.model_request_start' });
    expect(log.statements).toEqual([
      {
        kind: 'transition',
        types: ['session.status_running', 'span.model_request_start'],
        change: { from: ['idle'], to: 'running', stopReason: null, consume: ['sevt_in'], logEndsAt: 10 },
      },
    ]);
    expect([...writer.consumed]).toEqual(['sevt_in']);
    await writer.emit({ type: 'agent.message' });
    await writer.finish(['running'], 'idle', { type: 'session.status_idle' }, { release: true });
    expect(log.statements.map((s) => s.kind)).toEqual(['transition', 'transition']);
    expect(log.published).toEqual([
      'session.status_running',
      'span.model_request_start',
      'agent.message',
      'session.status_idle',
    ]);
    expect(writer.alone).toBe(true);
  });

  it('is written before the close when the turn ends without a barrier', async () => {
    const log = recordedLog();
    const writer = new TurnWriter(log.events, log.publisher, lease, undefined, 10);
    writer.startWithFirstWrite(['idle'], 'running', running, [], 10);
    await writer.emit({ type: 'session.error' });
    await writer.finish(['running'], 'idle', { type: 'session.status_idle' }, { release: true });
    expect(log.statements.map((s) => s.types)).toEqual([
      ['session.status_running', 'session.error'],
      ['session.status_idle'],
    ]);
  });

  it('refused, throws TurnStartRefused and publishes nothing', async () => {
    const log = recordedLog(true);
    const writer = new TurnWriter(log.events, log.publisher, lease, undefined, 10);
    writer.startWithFirstWrite(['idle'], 'running', running, ['sevt_in'], 10);
    await expect(writer.emit({ type: 'span.model_request_start' })).rejects.toBeInstanceOf(TurnStartRefused);
    await expect(
      writer.finish(['running'], 'idle', { type: 'session.status_idle' }, { release: true }),
    ).rejects.toBeInstanceOf(TurnStartRefused);
    expect(log.published).toEqual([]);
    expect(writer.consumed.size).toBe(0);
    expect(writer.released).toBe(false);
  });
});
