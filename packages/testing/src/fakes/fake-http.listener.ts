import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake server received, with its JSON body parsed. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON; the raw text when it is not JSON; undefined when the request had no body. */
  body: unknown;
}

export type FakeRouteHandler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** A loopback HTTP listener on a random port that records every request before routing it. */
export class FakeHttpListener {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
    /** Every request received, in order (cleared by the fakes' reset()). */
    readonly requests: RecordedRequest[],
  ) {}

  static async start(handler: FakeRouteHandler): Promise<FakeHttpListener> {
    const requests: RecordedRequest[] = [];
    const server = createServer((req, res) => {
      void readRequest(req).then(async (recorded) => {
        requests.push(recorded);
        try {
          await handler(recorded, res);
        } catch (error) {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: String(error) } }));
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new FakeHttpListener(server, `http://127.0.0.1:${port}`, requests);
  }

  async close(): Promise<void> {
    // Hung streams would otherwise keep close() waiting forever.
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function readRequest(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  let body: unknown = raw;
  try {
    body = raw.length > 0 ? JSON.parse(raw) : undefined;
  } catch {
    // Keep the raw text: tests may want to assert on a malformed body.
  }
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers[key] = value;
    else if (Array.isArray(value)) headers[key] = value.join(', ');
  }
  return { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
}

/** Writes one server-sent event; `event` is omitted for OpenAI-style data-only streams. */
export function writeSse(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
}

/** Splits text into pieces of at most `size` characters so streams carry several deltas. */
export function splitText(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` is absent or a list whose every item passes `isItem`. */
export function isOptionalListOf(value: unknown, isItem: (item: unknown) => boolean): boolean {
  return value === undefined || (Array.isArray(value) && value.every(isItem));
}
