import type { ServerResponse } from 'node:http';
import { MultiagentRunSchema, multiagentRunToApi, PubSubjects, type MultiagentRun } from '@agentry/contracts';
import type { NatsBus } from '@agentry/platform';
import { SSE_HEARTBEAT } from '../streaming/sse-frame.js';

const HEARTBEAT_MS = 15_000;

/** Subscribed before the first read, so no change of the run falls between the read and the stream. */
export class RunStream {
  private readonly pending: MultiagentRun[] = [];
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  private constructor(bus: NatsBus, runId: string) {
    this.unsubscribe = bus.subscribe(PubSubjects.multiagentRun(runId), (message) => {
      const parsed = MultiagentRunSchema.safeParse(message);
      if (!parsed.success) return;
      this.pending.push(parsed.data);
      this.wake?.();
    });
  }

  static async open(bus: NatsBus, runId: string): Promise<RunStream> {
    const stream = new RunStream(bus, runId);
    await bus.flush();
    return stream;
  }

  /** Writes `current` and every later change as `event: run` frames, and ends once the run completes. */
  async pipe(current: MultiagentRun, response: ServerResponse): Promise<void> {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const closed = new Promise<void>((resolve) => response.once('close', resolve));
    let last = current;
    response.write(frame(last));
    try {
      while (last.status !== 'completed' && !response.destroyed) {
        const changed = await this.next(closed);
        if (changed === 'closed') break;
        if (changed === 'quiet') {
          response.write(SSE_HEARTBEAT);
          continue;
        }
        last = changed;
        response.write(frame(last));
      }
    } finally {
      this.unsubscribe();
      if (!response.writableEnded) response.end();
    }
  }

  private async next(closed: Promise<void>): Promise<MultiagentRun | 'closed' | 'quiet'> {
    const queued = this.pending.shift();
    if (queued) return queued;
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      new Promise<'changed'>((resolve) => (this.wake = () => resolve('changed'))),
      new Promise<'quiet'>((resolve) => (timer = setTimeout(() => resolve('quiet'), HEARTBEAT_MS))),
      closed.then(() => 'closed' as const),
    ]);
    clearTimeout(timer);
    this.wake = undefined;
    return outcome === 'changed' ? this.pending.shift()! : outcome;
  }

  close(): void {
    this.unsubscribe();
  }
}

function frame(run: MultiagentRun): string {
  return `event: run\ndata: ${JSON.stringify(multiagentRunToApi(run))}\n\n`;
}
