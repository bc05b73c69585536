import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { cutPageToFit, resumableAfter } from './page-byte-budget.js';

const item = (n: number, bytes = 100) => ({ id: `agent_${n}`, system: 'x'.repeat(bytes) });
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const within = (budget: number) => (cut: unknown) => bytesOf(cut) <= budget;

describe('cutting a page to a byte budget', () => {
  it('keeps the most leading items that fit and resumes right after the last one kept', () => {
    const page = resumableAfter(
      { data: [1, 2, 3, 4, 5].map((n) => item(n)), next_page: 'after-5' },
      (a) => `after-${a.id}`,
    );
    const budget = bytesOf({ data: [item(1), item(2), item(3)], next_page: 'after-agent_3' });
    const cut = cutPageToFit(page, within(budget), budget) as typeof page;
    expect(cut.data.map((a) => a.id)).toEqual(['agent_1', 'agent_2', 'agent_3']);
    expect(cut.next_page).toBe('after-agent_3');
  });

  it('promises a next page even when the uncut page was the last one', () => {
    const page = resumableAfter(
      { data: [item(1), item(2)], next_page: null, prev_page: 'before-1' },
      (a) => `after-${a.id}`,
    );
    const cut = cutPageToFit(page, within(bytesOf(page) - 50), 10_000) as typeof page;
    expect(cut).toEqual({ data: [item(1)], next_page: 'after-agent_1', prev_page: 'before-1' });
  });

  it('marks a {data, hasMore} page as having more, since its reader resumes after the last item it got', () => {
    const page = { data: [item(1), item(2), item(3)], hasMore: false };
    const cut = cutPageToFit(page, within(bytesOf({ data: [item(1), item(2)], hasMore: true })), 10_000);
    expect(cut).toEqual({ data: [item(1), item(2)], hasMore: true });
  });

  it('pages through a long list by bytes, every item exactly once and in order', () => {
    const all = Array.from({ length: 97 }, (_, n) => item(n, 50 + ((n * 37) % 400)));
    const budget = 2_000;
    const seen: string[] = [];
    let start = 0;
    while (start < all.length) {
      const rest = all.slice(start, start + 40);
      const page = resumableAfter({ data: rest, next_page: null as string | null }, (a) => a.id);
      const fitted = (
        bytesOf(page) <= budget ? page : cutPageToFit(page, within(budget), budget)
      ) as typeof page;
      expect(bytesOf(fitted)).toBeLessThanOrEqual(budget);
      seen.push(...fitted.data.map((a) => a.id));
      start += fitted.data.length;
    }
    expect(seen).toEqual(all.map((a) => a.id));
  });

  it('refuses, naming it, an item that alone exceeds the budget', () => {
    const page = resumableAfter({ data: [item(1, 5_000), item(2)], next_page: null }, (a) => a.id);
    expect(() => cutPageToFit(page, within(1_000), 1_000)).toThrow(
      /item agent_1 alone is larger than the 1000 bytes/,
    );
    try {
      cutPageToFit(page, within(1_000), 1_000);
    } catch (error) {
      expect(AppError.is(error, 'PAYLOAD_TOO_LARGE')).toBe(true);
    }
  });

  it('leaves alone a value that is not a page it can resume', () => {
    expect(cutPageToFit({ data: [item(1), item(2)], next_page: 'x' }, within(10), 10)).toBeUndefined();
    expect(cutPageToFit({ id: 'agent_1' }, within(10), 10)).toBeUndefined();
  });

  it('keeps the resume mark off the wire', () => {
    const page = resumableAfter({ data: [item(1)], next_page: null }, (a) => a.id);
    expect(JSON.parse(JSON.stringify(page))).toEqual({ data: [item(1)], next_page: null });
  });
});
