import type { ExecResult } from '../port.js';

/**
 * Captures one output stream up to a byte cap, keeping the head and the tail (errors tend to be at the
 * end) and putting a marker where bytes were dropped.
 */
export class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Uint8Array | string): void {
    let buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.total += buf.length;
    const headRoom = Math.ceil(this.maxBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const taken = buf.subarray(0, headRoom);
      this.head.push(Buffer.from(taken));
      this.headBytes += taken.length;
      buf = buf.subarray(taken.length);
    }
    if (buf.length === 0) return;
    this.tail.push(Buffer.from(buf));
    this.tailBytes += buf.length;
    const tailCap = Math.floor(this.maxBytes / 2);
    while (this.tailBytes > tailCap && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  get droppedBytes(): number {
    return Math.max(0, this.total - this.headBytes - this.tailBytes);
  }

  toString(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.truncated ? `${head}\n[... ${this.droppedBytes} bytes truncated ...]\n${tail}` : head + tail;
  }
}

/** The two streams of one command, capped alike, and how its end reads as an `ExecResult`. */
export function captureExec(maxOutputBytes: number, started: number) {
  const stdout = new OutputCollector(maxOutputBytes);
  const stderr = new OutputCollector(maxOutputBytes);
  const result = (exitCode: number, timedOut: boolean, aborted: boolean): ExecResult => ({
    exitCode,
    stdout: stdout.toString(),
    stderr: stderr.toString(),
    timedOut,
    aborted,
    truncated: stdout.truncated || stderr.truncated,
    durationMs: Date.now() - started,
  });
  return { stdout, stderr, result };
}
