/**
 * A lean SSE reader for the bench: one callback per frame with its arrival time, no polling, so
 * latencies are read at the moment a frame lands.
 */
import { request, type IncomingMessage, type ClientRequest, Agent } from 'node:http';

export interface Frame {
  id: number;
  event: string;
  data: string;
  at: number;
}

/** A keep-alive agent without a socket cap, so thousands of streams can be open at once. */
const streamAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

export class SseReader {
  private req: ClientRequest | undefined;
  private buffer = '';
  opened = false;

  private constructor(private readonly onFrame: (frame: Frame) => void) {}

  static open(
    url: string,
    headers: Record<string, string>,
    onFrame: (frame: Frame) => void,
  ): Promise<SseReader> {
    const reader = new SseReader(onFrame);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { headers: { accept: 'text/event-stream', ...headers }, agent: streamAgent },
        (res: IncomingMessage) => {
          if (res.statusCode !== 200) {
            reject(new Error(`stream ${url}: ${res.statusCode}`));
            res.resume();
            return;
          }
          res.setEncoding('utf8');
          let resolved = false;
          res.on('data', (chunk: string) => {
            reader.consume(chunk);
            // The first bytes (a heartbeat comment) say the stream is live.
            if (!resolved) {
              resolved = true;
              reader.opened = true;
              resolve(reader);
            }
          });
          res.on('error', () => undefined);
        },
      );
      req.on('error', reject);
      req.end();
      reader.req = req;
    });
  }

  private consume(chunk: string): void {
    this.buffer += chunk;
    let boundary: number;
    while ((boundary = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, boundary);
      this.buffer = this.buffer.slice(boundary + 2);
      if (block.startsWith(':')) continue;
      let id = 0;
      let event = '';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) id = Number(line.slice(4));
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data = line.slice(6);
      }
      this.onFrame({ id, event, data, at: performance.now() });
    }
  }

  close(): void {
    this.req?.destroy();
  }
}
