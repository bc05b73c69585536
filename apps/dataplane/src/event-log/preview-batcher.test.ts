import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamOnlyEvent } from '@agentry/contracts';
import { PreviewBatcher } from './preview-batcher.js';

describe('PreviewBatcher', () => {
  let sent: StreamOnlyEvent[][];
  let batcher: PreviewBatcher;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    batcher = new PreviewBatcher((events) => sent.push(events), 50);
  });
  afterEach(() => vi.useRealTimers());

  it('sends a window of tokens as one message: the start, then one delta joining the chunks', () => {
    for (const text of ['Hel', 'lo, ', 'world'])
      batcher.add({ type: 'delta.text', event_id: 'sevt_m', text });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual([
      [
        { type: 'event_start', event: { id: 'sevt_m', type: 'agent.message' } },
        {
          type: 'event_delta',
          event_id: 'sevt_m',
          delta: { type: 'content_delta', content: { type: 'text', text: 'Hello, world' } },
        },
      ],
    ]);
    batcher.add({ type: 'delta.text', event_id: 'sevt_m', text: '!' });
    batcher.flush();
    expect(sent[1]).toEqual([
      {
        type: 'event_delta',
        event_id: 'sevt_m',
        delta: { type: 'content_delta', content: { type: 'text', text: '!' } },
      },
    ]);
  });

  it('previews thinking as start-only and drops tool-input previews', () => {
    batcher.add({ type: 'delta.thinking', event_id: 'sevt_t', text: 'hmm' });
    batcher.add({ type: 'delta.thinking', event_id: 'sevt_t', text: 'mm' });
    batcher.add({ type: 'delta.tool_input', tool_use_id: 'sevt_u', partial_json: '{}' });
    batcher.flush();
    expect(sent).toEqual([[{ type: 'event_start', event: { id: 'sevt_t', type: 'agent.thinking' } }]]);
    batcher.flush();
    expect(sent).toHaveLength(1);
  });
});
