import { describe, expect, it } from 'vitest';
import { resumableAfter } from '../paging/page-byte-budget.js';
import { fittedPacket, replyWithinPayload } from './reply-within-payload.js';

const MAX_PAYLOAD = 64 * 1024;
const agents = Array.from({ length: 20 }, (_, n) => ({ id: `agent_${n}`, system: 'x'.repeat(10_000) }));
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

describe('replies sized to the bus', () => {
  it('sends a page too large for the bus as its leading items, with a cursor after the last one', () => {
    const page = resumableAfter({ data: agents, next_page: null }, (a) => `after-${a.id}`);
    const sent = replyWithinPayload(
      { id: '1', response: { ok: true, data: page }, isDisposed: true },
      MAX_PAYLOAD,
    ) as { response: { ok: true; data: typeof page } };
    expect(bytesOf(sent)).toBeLessThanOrEqual(MAX_PAYLOAD);
    const kept = sent.response.data.data;
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThan(agents.length);
    expect(kept).toEqual(agents.slice(0, kept.length));
    expect(sent.response.data.next_page).toBe(`after-${kept.at(-1)!.id}`);
  });

  it('answers any other reply too large for the bus with a PAYLOAD_TOO_LARGE envelope', () => {
    const sent = replyWithinPayload(
      { id: '1', response: { ok: true, data: { agents } }, isDisposed: true },
      MAX_PAYLOAD,
    );
    expect([sent]).toEqual([
      {
        id: '1',
        isDisposed: true,
        response: {
          ok: false,
          error: expect.objectContaining({
            code: 'PAYLOAD_TOO_LARGE',
            message: expect.stringMatching(/^The reply is \d+ bytes/) as unknown,
          }) as unknown,
        },
      },
    ]);
  });

  it('sends a reply that fits untouched', () => {
    const packet = {
      id: '1',
      response: { ok: true, data: { data: agents.slice(0, 2), hasMore: false } },
      isDisposed: true,
    };
    expect(replyWithinPayload(packet, MAX_PAYLOAD)).toBe(packet);
  });

  it('keeps room under max_payload for what the transport adds', () => {
    const packet = fittedPacket(
      { id: '1', response: { ok: true, data: { data: agents, hasMore: false } } },
      MAX_PAYLOAD,
    );
    expect(bytesOf(packet)).toBeLessThanOrEqual(MAX_PAYLOAD - 4096);
  });
});
