/** Percentiles, CPU readings and the figures table shared by the platform bench. */
import { readdirSync, readFileSync } from 'node:fs';

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function mean(samples: number[]): number {
  return samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
}

const CLOCK_TICKS = 100;

/** User + system CPU in milliseconds from the text of `/proc/<pid>/stat` (after the command name). */
function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** User + system CPU of a process so far, in milliseconds (from /proc; Linux only). */
export function cpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

type SharedServer = 'postgres' | 'nats';
type ServersReading = Map<number, { server: SharedServer; ms: number }>;

/**
 * CPU milliseconds of each process of the shared servers: every Postgres process (backends, WAL writer,
 * checkpointer) and the NATS server.
 */
export function readSharedServers(): ServersReading {
  const out: ServersReading = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const server = name === 'postgres' ? 'postgres' : name === 'nats-server' ? 'nats' : undefined;
    if (!server) continue;
    out.set(Number(entry), { server, ms: statCpuMs(stat) });
  }
  return out;
}

/**
 * The shared servers' CPU since `before`, by server, process by process: one started since counts from
 * zero; one that exited since is missed (pooled connections live through a phase, so little is).
 */
export function sharedServersCpuSince(before: ServersReading): Record<SharedServer, number> {
  const out = { postgres: 0, nats: 0 };
  for (const [pid, now] of readSharedServers()) out[now.server] += now.ms - (before.get(pid)?.ms ?? 0);
  return out;
}

/** Write system calls a process has made (`syscw`): each is a socket write, the costly part of a turn. */
export function writeCalls(pid: number): number {
  const line = readFileSync(`/proc/${pid}/io`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('syscw:'))!;
  return Number(line.replace(/\D+/g, ''));
}

/** Resident set size of a process, in bytes. */
export function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) * 1024;
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

export interface Figure {
  name: string;
  platform: number;
  bare: number | null;
  unit: string;
  /** How the ratio is read: `÷` platform over bare (lower is better), `×` throughput ratio (higher is better), `−` difference. */
  compare?: 'ratio' | 'difference';
}

export function printFigures(title: string, figures: Figure[]): void {
  console.log(`\n## ${title}\n`);
  console.log('| figure | platform | bare | platform ÷ bare |');
  console.log('|---|---|---|---|');
  for (const f of figures) {
    const fmt = (v: number) => `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${f.unit}`;
    let ratio = '—';
    if (f.bare !== null && f.bare > 0) {
      ratio =
        f.compare === 'difference'
          ? `${(f.platform - f.bare).toFixed(2)} ${f.unit} over`
          : `${(f.platform / f.bare).toFixed(2)}×`;
    }
    console.log(`| ${f.name} | ${fmt(f.platform)} | ${f.bare === null ? '—' : fmt(f.bare)} | ${ratio} |`);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
