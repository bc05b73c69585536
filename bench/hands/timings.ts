/**
 * With `--timings` the worker logs each call's steps at debug level ("tool call timings", see
 * apps/worker/src/hands/call-timings.ts); this reads them back from its log as the median ms of each step
 * per tool, the profile of the worker's part of a round trip.
 */
import { readFileSync, statSync } from 'node:fs';
import { percentile } from '../platform/stats.js';

interface TimingLine {
  msg?: string;
  tool?: string;
  ms?: Record<string, number>;
}

export function printStepMedians(workerLog: string): void {
  const byTool = new Map<string, Array<Record<string, number>>>();
  for (const line of readFileSync(workerLog, 'utf8').split('\n')) {
    if (!line.includes('tool call timings')) continue;
    const entry = JSON.parse(line) as TimingLine;
    if (!entry.tool || !entry.ms) continue;
    byTool.set(entry.tool, [...(byTool.get(entry.tool) ?? []), entry.ms]);
  }
  for (const [tool, samples] of byTool) {
    const steps = Object.keys(samples[0] ?? {});
    console.log(`\n### Worker steps of \`${tool}\` (median ms of ${samples.length} calls)\n`);
    console.log(`| ${steps.join(' | ')} |`);
    console.log(`|${steps.map(() => '---').join('|')}|`);
    console.log(
      `| ${steps
        .map((s) =>
          percentile(
            samples.map((m) => m[s] ?? 0),
            50,
          ).toFixed(2),
        )
        .join(' | ')} |`,
    );
  }
}

/** Where a log ends now: what is written after it is the next phase's. */
export function logEnd(log: string): number {
  return statSync(log).size;
}

/**
 * The dataplane's "tool call round trip" lines (debug level) written between `from` and `to`: each call of `tool` as
 * the Brain waits for it, from handing it to the Hands (its binding, the NATS request, the worker's steps,
 * the reply) to having its outcome, in ms.
 */
export function brainRoundTrips(dataplaneLog: string, tool: string, from: number, to?: number): number[] {
  const text = readFileSync(dataplaneLog).subarray(from, to).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.includes('tool call round trip'))
    .map((line) => JSON.parse(line) as { tool?: string; ms?: number })
    .filter((entry) => entry.tool === tool && typeof entry.ms === 'number')
    .map((entry) => entry.ms!);
}
