import { describe, expect, it } from 'vitest';
import type { EventRow } from './event-row.js';
import type { SessionEventsRepository } from './session-events.repository.js';
import { toStoredEvent } from './event-row.mapper.js';
import { SessionLogCache } from './session-log-cache.js';

const row = (seq: number, type: string): EventRow => ({
  id: `sevt_${seq}`,
  seq,
  type,
  payload: {},
  processedAt: new Date(0),
  createdAt: new Date(0),
});

/** A log in memory that answers as the repository does, counting the rows each read returns. */
function logOf(types: string[]) {
  const rows = types.map((type, i) => row(i + 1, type));
  const reads: number[] = [];
  const repository = {
    after: (_: string, afterSeq: number) => {
      const out = rows.filter((r) => r.seq > afterSeq);
      reads.push(out.length);
      return Promise.resolve(out);
    },
    liveLog: () => {
      const last = rows.findLast((r) => r.type === COMPACTED)?.seq ?? 0;
      const out = rows.filter((r) => r.seq >= last);
      reads.push(out.length);
      return Promise.resolve(out);
    },
  } as unknown as SessionEventsRepository;
  return { rows, reads, repository, append: (type: string) => rows.push(row(rows.length + 1, type)) };
}

const COMPACTED = 'agent.thread_context_compacted';
const seqs = (log: Array<{ seq: number }>) => log.map((e) => e.seq);

describe('the log a turn reads', () => {
  it('starts at the last compaction on a cold read', async () => {
    const log = logOf(['user.message', 'agent.message', COMPACTED, 'user.message', 'agent.message']);
    expect(seqs(await new SessionLogCache(log.repository, 10).read('sesn_1'))).toEqual([3, 4, 5]);
    expect(log.reads).toEqual([3]);
  });

  it('reads only what was appended since, and drops what a new compaction replaced', async () => {
    const log = logOf(['user.message', 'agent.message']);
    const cache = new SessionLogCache(log.repository, 10);
    expect(seqs(await cache.read('sesn_1'))).toEqual([1, 2]);
    log.append('user.message');
    log.append(COMPACTED);
    log.append('agent.message');
    expect(seqs(await cache.read('sesn_1'))).toEqual([4, 5]);
    log.append('user.message');
    expect(seqs(await cache.read('sesn_1'))).toEqual([4, 5, 6]);
    expect(log.reads).toEqual([2, 3, 1]);
  });

  it('keeps the input that arrived during the compacting turn, which that turn had not read', async () => {
    const log = logOf(['user.message', 'session.status_running', 'user.message', 'agent.message']);
    const cache = new SessionLogCache(log.repository, 10);
    expect(seqs(await cache.read('sesn_1'))).toEqual([1, 2, 3, 4]);
    log.rows.push({ ...row(5, COMPACTED), payload: { context_through_seq: 1 } });
    log.append('agent.message');
    // The compacting turn had read through seq 1: the message at 3 came after, and survives the compaction.
    expect(seqs(await cache.read('sesn_1'))).toEqual([2, 3, 4, 5, 6]);
  });

  it('takes a read done elsewhere (the lease statement) from where it said to start', () => {
    const log = logOf(['user.message', 'agent.message', 'user.message']);
    const cache = new SessionLogCache(log.repository, 10);
    expect(cache.readFrom('sesn_1')).toBeNull();
    const asRead = (from: number) => log.rows.filter((r) => r.seq > from).map(toStoredEvent);
    expect(seqs(cache.extend('sesn_1', asRead(0), null))).toEqual([1, 2, 3]);
    expect(cache.readFrom('sesn_1')).toBe(3);
    // Events this replica remembered after the read began are in the read too: kept once.
    const from = cache.readFrom('sesn_1')!;
    log.append('agent.message');
    cache.remember('sesn_1', asRead(3));
    expect(seqs(cache.extend('sesn_1', asRead(from), from))).toEqual([1, 2, 3, 4]);
    expect(log.reads).toEqual([]);
  });
});
