/**
 * The steps of a cold start as the worker timed them, from its debug log: `session sandbox opened` (the
 * environment image, the vault credentials, the egress proxy, the cgroup, waiting for the workspace's
 * restore, the workspace quota) and `sandbox opened ahead of the first tool call` (the restore and the
 * open side by side); the median of each step over the given sessions.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { percentile } from '../platform/stats.js';

interface TimedLine {
  msg?: string;
  sessionId?: string;
  totalMs?: number;
  stepsMs?: Record<string, number>;
}

export async function coldStartSteps(runDir: string, sessionIds: ReadonlySet<string>): Promise<void> {
  const text = await readFile(join(runDir, 'worker.log'), 'utf8').catch(() => '');
  const byKind = new Map<string, Map<string, number[]>>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as TimedLine;
    if (!entry.stepsMs || !entry.sessionId || !sessionIds.has(entry.sessionId) || !entry.msg) continue;
    const steps = byKind.get(entry.msg) ?? new Map<string, number[]>();
    byKind.set(entry.msg, steps);
    for (const [step, ms] of Object.entries({ ...entry.stepsMs, total: entry.totalMs ?? NaN }))
      if (typeof ms === 'number') steps.set(step, [...(steps.get(step) ?? []), ms]);
  }
  if (byKind.size === 0) {
    console.log('\n(no step timings in the worker log: run with --profile)');
    return;
  }
  for (const [kind, steps] of byKind) {
    console.log(`\n${kind} (median ms over ${steps.get('total')?.length ?? 0}):`);
    for (const [step, samples] of steps)
      console.log(`  ${step.padEnd(12)} ${percentile(samples, 50).toFixed(1).padStart(8)}`);
  }
}
