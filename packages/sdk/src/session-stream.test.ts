import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamRefusedError, streamSessionEvents, type StreamedEvent } from './session-stream.js';

const frame = (seq: number) =>
  `id: ${seq}\nevent: agent.message\ndata: ${JSON.stringify({ type: 'agent.message', seq })}\n\n`;

describe('streamSessionEvents', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  const listen = async (handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('resumes after a dropped connection from Last-Event-ID, with no gap and no duplicate', async () => {
    const asked: (string | undefined)[] = [];
    const baseUrl = await listen((req, res) => {
      asked.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (asked.length === 1) {
        res.end(frame(1) + frame(2) + frame(3));
        return;
      }
      // The server replays one event the client already has: it must not be yielded twice.
      const after = Number(req.headers['last-event-id']);
      res.write(': heartbeat\n\n' + frame(after) + frame(after + 1) + frame(after + 2));
    });
    const controller = new AbortController();
    const seen: StreamedEvent[] = [];
    const reconnects: (number | null)[] = [];
    for await (const event of streamSessionEvents({
      baseUrl,
      path: '/v1/sessions/sesn_1/events/stream',
      minBackoffMs: 5,
      signal: controller.signal,
      onReconnect: (info) => reconnects.push(info.lastEventId),
    })) {
      seen.push(event);
      if (seen.length === 5) controller.abort();
    }
    expect(seen.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, '3']);
    expect(reconnects).toEqual([3]);
  });

  it('gives up at once on a refusal a retry cannot change', async () => {
    const baseUrl = await listen((_req, res) => res.writeHead(404).end('{"type":"error"}'));
    const stream = streamSessionEvents({ baseUrl, path: '/v1/sessions/sesn_x/events/stream' });
    await expect(stream.next()).rejects.toBeInstanceOf(StreamRefusedError);
  });

  it('backs off longer after each failed attempt', async () => {
    let calls = 0;
    const baseUrl = await listen((_req, res) => {
      calls += 1;
      res.writeHead(503).end();
    });
    const controller = new AbortController();
    const delays: number[] = [];
    const stream = streamSessionEvents({
      baseUrl,
      path: '/s',
      minBackoffMs: 4,
      maxBackoffMs: 32,
      signal: controller.signal,
      onReconnect: (info) => {
        delays.push(info.delayMs);
        if (delays.length === 6) controller.abort();
      },
    });
    for await (const _ of stream) void _;
    expect(calls).toBe(6);
    // Each wait is within [ceiling/2, ceiling] of a doubling ceiling capped at 32.
    const ceilings = [4, 8, 16, 32, 32, 32];
    delays.forEach((delay, i) => {
      expect(delay).toBeGreaterThanOrEqual(ceilings[i]! / 2);
      expect(delay).toBeLessThanOrEqual(ceilings[i]!);
    });
  });
});
