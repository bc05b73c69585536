/** The floor a Hands tool call is compared against: what the machine does with no platform around it. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BWRAP = process.env.AGENTRY_SANDBOX_BWRAP_PATH ?? '/usr/bin/bwrap';

/** One `bwrap … /bin/bash -c true` with the namespaces the session sandbox unshares, spawn to exit. */
export async function bareBubblewrapSpawns(count: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentry-bench-bwrap-'));
  const args = [
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--bind',
    dir,
    '/workspace',
    '--chdir',
    '/workspace',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    '--die-with-parent',
    '--new-session',
    '/bin/bash',
    '-c',
    'true',
  ];
  const samples: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const child = spawn(BWRAP, args, { stdio: 'ignore' });
        child.once('error', reject);
        child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bwrap exited ${code}`))));
      });
      samples.push(performance.now() - started);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

/** One 1 KB `writeFile` into a fresh path, like the `write` tool's. */
export async function bareFsWrites(count: number, content: string): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentry-bench-fs-'));
  const samples: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      await writeFile(join(dir, `f${i}.txt`), content);
      samples.push(performance.now() - started);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

/** One `readFile` of a 1 KB file written beforehand, like the `read` tool's. */
export async function bareFsReads(count: number, content: string): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentry-bench-fs-'));
  const samples: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) await writeFile(join(dir, `f${i}.txt`), content);
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      await readFile(join(dir, `f${i}.txt`), 'utf8');
      samples.push(performance.now() - started);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}
