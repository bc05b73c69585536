/** Turn figures: latency at one session, closed-loop throughput at N sessions, length flatness. */
import type { Bare } from './bare.js';
import type { BenchSession, PlatformDriver, TurnTiming } from './platform-driver.js';
import {
  cpuMs,
  mean,
  percentile,
  readSharedServers,
  sharedServersCpuSince,
  sleep,
  writeCalls,
} from './stats.js';

export interface ThroughputResult {
  turnsPerSecond: number;
  turns: number;
  pickups: number[];
  /** The same waits by the event log's own timestamps (see `TurnTiming.serverPickup`). */
  serverPickups: number[];
  latencies: number[];
  cpuPerTurnMs: Record<string, number>;
  /** Postgres's and the NATS server's CPU per turn: the shared servers' share of the machine. */
  serversCpuPerTurnMs: Record<string, number>;
  /** Write system calls per turn: unlike CPU time, a count the machine's load does not move. */
  writesPerTurn: Record<string, number>;
  errors: string[];
}

/** Sequential turns on one platform session and one bare session, interleaved in rounds. */
export async function singleSessionLatency(platform: BenchSession, bare: Bare, turns: number) {
  const bareSession = await bare.createSession();
  const p: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < turns; i += 1) {
    p.push((await platform.turn()).latency);
    const start = performance.now();
    await bare.turn(bareSession);
    b.push(performance.now() - start);
  }
  return { platform: p, bare: b };
}

/**
 * Session `i` of `count` joins the closed loop `i / count` of the way through the ramp: users do not
 * send their first messages in the same millisecond, and a level that starts with every session at once
 * measures that one burst (see {@link simultaneousPickups}) rather than the steady load.
 */
const RAMP_MS = 1000;

function joinDelay(i: number, count: number): Promise<void> {
  return sleep((i * RAMP_MS) / count);
}

/**
 * Every session runs turns back to back for `seconds` (joining over {@link RAMP_MS}, which the elapsed
 * time includes); CPU of each listed process is read around it.
 */
export async function platformThroughput(
  sessions: BenchSession[],
  seconds: number,
  processes: Record<string, number | undefined>,
): Promise<ThroughputResult> {
  const deadline = performance.now() + seconds * 1000;
  const pickups: number[] = [];
  const serverPickups: number[] = [];
  const latencies: number[] = [];
  const errors: string[] = [];
  const before = readCpu(processes);
  const writesBefore = readWrites(processes);
  const serversBefore = readSharedServers();
  const started = performance.now();
  let turns = 0;
  await Promise.all(
    sessions.map(async (session, i) => {
      await joinDelay(i, sessions.length);
      while (performance.now() < deadline) {
        let timing: TurnTiming;
        try {
          timing = await session.turn();
        } catch (error) {
          errors.push((error as Error).message);
          return;
        }
        turns += 1;
        pickups.push(timing.pickup);
        serverPickups.push(timing.serverPickup);
        latencies.push(timing.latency);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const after = readCpu(processes);
  const writesAfter = readWrites(processes);
  const serversCpuPerTurnMs = perTurn(sharedServersCpuSince(serversBefore), turns);
  const cpuPerTurnMs: Record<string, number> = {};
  const writesPerTurn: Record<string, number> = {};
  for (const name of Object.keys(before)) {
    cpuPerTurnMs[name] = (after[name]! - before[name]!) / Math.max(1, turns);
    writesPerTurn[name] = (writesAfter[name]! - writesBefore[name]!) / Math.max(1, turns);
  }
  return {
    turnsPerSecond: turns / elapsed,
    turns,
    pickups,
    serverPickups,
    latencies,
    cpuPerTurnMs,
    serversCpuPerTurnMs,
    writesPerTurn,
    errors,
  };
}

function perTurn(totals: Record<string, number>, turns: number): Record<string, number> {
  return Object.fromEntries(Object.entries(totals).map(([name, ms]) => [name, ms / Math.max(1, turns)]));
}

/**
 * Every idle session sends one message at the same instant: the pickup of each, the burst a level would
 * start with if its sessions did not join over a ramp.
 */
export async function simultaneousPickups(sessions: BenchSession[]): Promise<number[]> {
  const timings = await Promise.all(sessions.map((session) => session.turn('all at once')));
  return timings.map((t) => t.pickup);
}

export async function bareThroughput(
  bare: Bare,
  concurrency: number,
  seconds: number,
): Promise<{ turnsPerSecond: number; serversCpuPerTurnMs: Record<string, number> }> {
  const sessions = await Promise.all(Array.from({ length: concurrency }, () => bare.createSession()));
  const deadline = performance.now() + seconds * 1000;
  const serversBefore = readSharedServers();
  const started = performance.now();
  let turns = 0;
  await Promise.all(
    sessions.map(async (id, i) => {
      await joinDelay(i, sessions.length);
      while (performance.now() < deadline) {
        await bare.turn(id);
        turns += 1;
      }
    }),
  );
  const turnsPerSecond = turns / ((performance.now() - started) / 1000);
  return { turnsPerSecond, serversCpuPerTurnMs: perTurn(sharedServersCpuSince(serversBefore), turns) };
}

/**
 * Turns 1–50 against the last 50 of one long session: the cost of a turn must not grow with the log.
 * The context is compacted along the way (the compactor's message threshold), so this also shows
 * that a turn after many compactions costs what one before the first did.
 */
export async function lengthFlatness(
  driver: PlatformDriver,
  ids: { agentId: string; environmentId: string },
  turns: number,
) {
  const session = await driver.session(ids);
  const latencies: number[] = [];
  for (let i = 0; i < turns; i += 1) latencies.push((await session.turn(`message ${i}`)).latency);
  session.close();
  const window = Math.min(50, Math.floor(turns / 4));
  const first = mean(latencies.slice(0, window));
  const last = mean(latencies.slice(-window));
  return {
    first,
    last,
    ratio: last / first,
    p50: percentile(latencies, 50),
    compactions: session.compactions,
  };
}

function readCpu(processes: Record<string, number | undefined>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(processes)) if (pid) out[name] = cpuMs(pid);
  return out;
}

function readWrites(processes: Record<string, number | undefined>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(processes)) if (pid) out[name] = writeCalls(pid);
  return out;
}
