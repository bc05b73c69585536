/** Stream figures: POST → SSE for one client, fan-out of one event to many, memory per idle stream. */
import type { Bare } from './bare.js';
import type { PlatformDriver } from './platform-driver.js';
import { SseReader } from './sse-reader.js';
import { rssBytes, sleep } from './stats.js';

async function openMany(
  count: number,
  url: (i: number) => string,
  headers: Record<string, string>,
  onFrame: (at: number, event: string) => void,
) {
  const readers: SseReader[] = [];
  const BATCH = 200;
  for (let i = 0; i < count; i += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, count - i) }, (_, k) =>
        SseReader.open(url(i + k), headers, (f) => onFrame(f.at, f.event)),
      ),
    );
    readers.push(...batch);
  }
  return readers;
}

/** Latency from POST to the posted event's arrival at each of `clients` readers, over `rounds` posts. */
export async function platformFanOut(
  driver: PlatformDriver,
  sessionId: string,
  clients: number,
  rounds: number,
): Promise<number[]> {
  const samples: number[] = [];
  let sentAt = 0;
  const readers = await openMany(
    clients,
    () => `${driver.baseUrl}/v1/sessions/${sessionId}/events/stream`,
    driver.headers,
    (at, event) => {
      if (event === 'user.message') samples.push(at - sentAt);
    },
  );
  for (let round = 0; round < rounds; round += 1) {
    const expected = samples.length + clients;
    sentAt = performance.now();
    await driver.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'fan-out' }] }],
    });
    const deadline = performance.now() + 30_000;
    while (samples.length < expected && performance.now() < deadline) await sleep(5);
    await sleep(300); // let the turn this message started finish before the next post
  }
  for (const reader of readers) reader.close();
  return samples;
}

export async function bareFanOut(bare: Bare, clients: number, rounds: number): Promise<number[]> {
  const sessionId = await bare.createSession();
  const samples: number[] = [];
  let sentAt = 0;
  const readers = await openMany(
    clients,
    () => `${bare.url}/s/${sessionId}/stream`,
    {},
    (at) => samples.push(at - sentAt),
  );
  for (let round = 0; round < rounds; round += 1) {
    const expected = samples.length + clients;
    sentAt = performance.now();
    await fetch(`${bare.url}/s/${sessionId}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"fan-out"}',
    });
    const deadline = performance.now() + 30_000;
    while (samples.length < expected && performance.now() < deadline) await sleep(5);
    await sleep(300);
  }
  for (const reader of readers) reader.close();
  return samples;
}

/**
 * POST → own event on the stream for a bare session, one post at a time: the physical floor of that
 * path. Posts are taken between the platform's, so both see the machine in the same state.
 */
export class BarePostStream {
  private sentAt = 0;
  private arrived: ((at: number) => void) | undefined;

  private constructor(
    private readonly bare: Bare,
    private readonly sessionId: string,
    private reader?: SseReader,
  ) {}

  static async open(bare: Bare): Promise<BarePostStream> {
    const stream = new BarePostStream(bare, await bare.createSession());
    stream.reader = await SseReader.open(`${bare.url}/s/${stream.sessionId}/stream`, {}, (f) =>
      stream.arrived?.(f.at),
    );
    return stream;
  }

  async post(): Promise<number> {
    const got = new Promise<number>((resolve) => (this.arrived = resolve));
    this.sentAt = performance.now();
    await fetch(`${this.bare.url}/s/${this.sessionId}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    });
    return (await got) - this.sentAt;
  }

  close(): void {
    this.reader?.close();
  }
}

/** Gateway RSS growth per idle stream with `count` streams spread over `sessions` sessions. */
export async function gatewayMemoryPerStream(
  driver: PlatformDriver,
  sessionIds: string[],
  count: number,
  gatewayPid: number,
): Promise<number> {
  const url = (i: number) =>
    `${driver.baseUrl}/v1/sessions/${sessionIds[i % sessionIds.length]}/events/stream`;
  // Code paths and pools warmed up first, then the heap left to settle.
  for (const reader of await openMany(200, url, driver.headers, () => undefined)) reader.close();
  await sleep(3000);
  const before = rssBytes(gatewayPid);
  const readers = await openMany(count, url, driver.headers, () => undefined);
  await sleep(2000);
  const after = rssBytes(gatewayPid);
  for (const reader of readers) reader.close();
  return (after - before) / count;
}
