// Counts the places where test code waits for a fixed time instead of for a condition, and fails when
// there are as many as `--max=N`. A test that sleeps is slow when the machine is fast and flaky when it
// is slow; the few waits that remain are those where time passing is the point (see docs/testing.md).
//
//   node scripts/count-sleeps.mjs --max=10   lists every wait, exits 1 at 10 fixed waits or more
//   node scripts/count-sleeps.mjs --report   lists every wait, always exits 0
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
// Not this source: dependencies, builds, caches (the built trees of earlier releases under .cache) and run output.
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  '.git',
  '.turbo',
  '.data',
  '.cache',
  '.tools',
  'coverage',
  'test-results',
]);

/**
 * The named waits of packages/testing (src/time/deliberate-waits.ts). `fixed` ones are a test waiting
 * for time to pass and count against the limit; `scenario` ones set how long a fault or a client's
 * retry pause lasts while the test waits for conditions elsewhere: listed, not limited.
 */
const NAMED_WAITS = {
  quietPeriod: 'fixed',
  letExpire: 'fixed',
  holdFault: 'scenario',
  backOff: 'scenario',
};
/** Raw sleeps: a promise that only a timer resolves. */
const RAW_SLEEPS = ['sleep', 'delay'];
/** The definitions of the waits themselves, and the poll loop whose pause is between probes of a condition. */
const DEFINITIONS = new Set([
  'packages/testing/src/time/deliberate-waits.ts',
  'packages/testing/src/time/poll-until.ts',
]);

const posix = (path) => path.split(sep).join('/');

function isTestCode(path) {
  if (/\.test\.tsx?$/.test(path)) return true;
  if (/^apps\/[^/]+\/test\/.+\.ts$/.test(path)) return true;
  return /^packages\/testing\/src\/.+\.ts$/.test(path);
}

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* testFiles(join(dir, entry.name));
    } else {
      const path = posix(relative(root, join(dir, entry.name)));
      if (isTestCode(path) && !DEFINITIONS.has(path)) yield path;
    }
  }
}

/** Comments and string contents blanked, line breaks kept: a wait named in a comment is not a wait. */
function codeOnly(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(['"])(?:\\.|(?!\1)[^\\\n])*\1/g, (s) => s[0] + ' '.repeat(s.length - 2) + s[0])
    .replace(/\/\/[^\n]*/g, (c) => ' '.repeat(c.length));
}

/** The text from `open` (an opening parenthesis) to its matching close. */
function balanced(code, open) {
  let depth = 0;
  for (let i = open; i < code.length; i += 1) {
    if (code[i] === '(') depth += 1;
    else if (code[i] === ')' && (depth -= 1) === 0) return code.slice(open, i + 1);
  }
  return code.slice(open);
}

const lineOf = (code, index) => code.slice(0, index).split('\n').length;

function waitsIn(path) {
  const text = readFileSync(join(root, path), 'utf8');
  const code = codeOnly(text);
  const found = [];
  const add = (index, helper, kind) => found.push({ path, line: lineOf(code, index), helper, kind });

  // `import { setTimeout as wait } from 'node:timers/promises'` makes `wait` a raw sleep in this file.
  const sleeps = new Set(RAW_SLEEPS);
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?timers\/promises['"]/g)) {
    for (const name of m[1].split(',')) {
      const [imported, local = imported] = name.split(/\s+as\s+/).map((s) => s.trim());
      if (imported === 'setTimeout' || imported === 'scheduler') sleeps.add(local);
    }
  }

  // A promise resolved by nothing but a timer: `new Promise((r) => setTimeout(r, ms))`.
  const local = new Map(); // a local wrapper (`const sleep = (ms) => ...`) counts at its calls
  for (const m of code.matchAll(/new Promise\s*(?:<[^>]*>)?\s*\(/g)) {
    const body = balanced(code, m.index + m[0].length - 1);
    const resolve = /^\(\s*(?:async\s*)?\(?\s*(\w+)/.exec(body)?.[1];
    if (!resolve) continue;
    const uses = body.match(new RegExp(`\\b${resolve}\\b`, 'g')).length;
    if (!new RegExp(`setTimeout\\(\\s*${resolve}\\s*,`).test(body) || uses !== 2) continue;
    const wrapper = /const\s+(\w+)\s*=\s*\([^)]*\)\s*(?::[^=]+)?=>\s*$/.exec(code.slice(0, m.index));
    if (wrapper && code.slice(wrapper.index, m.index).split('\n').length <= 2) local.set(wrapper[1], 'fixed');
    else add(m.index, 'new Promise(setTimeout)', 'fixed');
  }

  // Named waits, and local wrappers around them (`const jitter = (ms) => holdFault(...)`).
  const named = new Map([...sleeps].map((name) => [name, 'fixed']));
  for (const [name, kind] of Object.entries(NAMED_WAITS)) named.set(name, kind);
  for (const [name, kind] of named) {
    for (const m of code.matchAll(new RegExp(`const\\s+(\\w+)\\s*=\\s*\\([^)]*\\)\\s*=>\\s*${name}\\(`, 'g')))
      local.set(m[1], kind);
  }
  // `sleep` or `delay` declared as something else (a backoff calculator's `delay`) is no sleep.
  for (const name of RAW_SLEEPS) {
    if (!local.has(name) && new RegExp(`(?:const|let)\\s+${name}\\s*=`).test(code)) named.delete(name);
  }
  const wrappers = [...local.keys()];
  for (const [name, kind] of new Map([...named, ...local])) {
    const call = new RegExp(`(?<![\\w.])${name}\\(`, 'g');
    for (const m of code.matchAll(call)) {
      const before = code.slice(code.lastIndexOf('\n', m.index) + 1, m.index);
      if (/\b(function|const|let)\s+$/.test(before) || /^\s*import\b/.test(before)) continue;
      // the call inside a wrapper's definition is counted where the wrapper is called
      if (wrappers.some((w) => new RegExp(`const\\s+${w}\\s*=`).test(before))) continue;
      add(m.index, name, kind);
    }
  }
  return found;
}

const args = process.argv.slice(2);
const max = Number(args.find((a) => a.startsWith('--max='))?.slice('--max='.length));
const reportOnly = args.includes('--report');
if (!reportOnly && !Number.isInteger(max)) {
  console.error('usage: node scripts/count-sleeps.mjs --max=N | --report');
  process.exit(2);
}

const waits = [...testFiles(root)]
  .flatMap(waitsIn)
  .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
const fixed = waits.filter((w) => w.kind === 'fixed');
const scenario = waits.filter((w) => w.kind === 'scenario');
const show = (w) => console.log(`  ${w.path}:${w.line}  ${w.helper}`);
console.log(`fixed waits in tests (${fixed.length}):`);
fixed.forEach(show);
console.log(`fault and retry timings, not limited (${scenario.length}):`);
scenario.forEach(show);
if (reportOnly) process.exit(0);
if (fixed.length >= max) {
  console.error(
    `${fixed.length} fixed waits in tests: the limit is below ${max}. Wait for a condition instead.`,
  );
  process.exit(1);
}
console.log(`${fixed.length} fixed waits in tests, below the limit of ${max}`);
