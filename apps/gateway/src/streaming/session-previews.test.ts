import { describe, expect, it } from 'vitest';
import type { DeltaType } from '@agentry/contracts';
import type { NatsBus } from '@agentry/platform';
import type { SseConnection } from './sse-connection.js';
import { SessionPreviews } from './session-previews.js';

/** Records the subjects subscribed to and lets the test deliver to them. */
function recordingBus() {
  const handlers = new Map<string, (message: unknown) => void>();
  const bus = {
    subscribe: (subject: string, handler: (message: unknown) => void) => {
      handlers.set(subject, handler);
      return () => handlers.delete(subject);
    },
  } as unknown as NatsBus;
  return { bus, handlers };
}

function client(deltas: DeltaType[]): SseConnection & { written: string[] } {
  const written: string[] = [];
  return {
    live: true,
    deltas: new Set(deltas),
    written,
    write: (frame: string) => written.push(frame) > 0,
  } as unknown as SseConnection & { written: string[] };
}

describe('SessionPreviews', () => {
  it('listens on the session delta subject only while a client asked for previews', () => {
    const { bus, handlers } = recordingBus();
    const connections = new Set<SseConnection>();
    const previews = new SessionPreviews('sesn_1', bus, connections, (task) => void task());
    const plain = client([]);
    connections.add(plain);
    previews.refresh();
    expect([...handlers.keys()]).toEqual([]);

    const previewing = client(['agent.message']);
    connections.add(previewing);
    previews.refresh();
    expect([...handlers.keys()]).toEqual(['delta.sesn_1']);

    connections.delete(previewing);
    previews.refresh();
    expect([...handlers.keys()]).toEqual([]);
  });

  it('writes each client only the previews of the types it asked for, as id-less frames', () => {
    const { bus, handlers } = recordingBus();
    const messages = client(['agent.message']);
    const thinking = client(['agent.thinking']);
    const plain = client([]);
    const previews = new SessionPreviews(
      'sesn_1',
      bus,
      new Set([messages, thinking, plain]),
      (task) => void task(),
    );
    previews.refresh();
    handlers.get('delta.sesn_1')!({
      events: [
        { type: 'event_start', event: { id: 'sevt_t', type: 'agent.thinking' } },
        { type: 'event_start', event: { id: 'sevt_m', type: 'agent.message' } },
        {
          type: 'event_delta',
          event_id: 'sevt_m',
          delta: { type: 'content_delta', content: { type: 'text', text: 'Hi' } },
        },
      ],
    });
    expect(messages.written.map((f) => f.split('\n')[0])).toEqual([
      'event: event_start',
      'event: event_delta',
    ]);
    expect(messages.written[0]).toBe(
      `event: event_start\ndata: {"type":"event_start","event":{"id":"sevt_m","type":"agent.message"}}\n\n`,
    );
    expect(thinking.written).toEqual([
      `event: event_start\ndata: {"type":"event_start","event":{"id":"sevt_t","type":"agent.thinking"}}\n\n`,
    ]);
    expect(plain.written).toEqual([]);
  });
});
