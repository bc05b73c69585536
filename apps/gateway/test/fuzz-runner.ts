import { backOff, quietPeriod } from '@agentry/testing';
import { envelopeProblem } from './error-envelopes.js';
import type { FuzzCase } from './fuzz-cases.js';
import { snapshotDiff } from './db-snapshot.js';

/** A case's reply as the fuzz test judges it: its status, and what is wrong with it (null: nothing). */
export interface Outcome {
  fuzz: FuzzCase;
  status: number;
  problem: string | null;
}

export interface FuzzReport {
  sent: number;
  statuses: Record<number, number>;
  /** Refused cases sent in a batch with no accepted one, so the database was compared around them. */
  refusedChecked: number;
  failures: string[];
}

const where = (c: FuzzCase) => `${c.op.label} [${c.label}]`;

/** Sends one case; a 5xx, a missing answer or a 4xx without its surface's envelope is a problem. */
export async function sendCase(
  baseUrl: string,
  fuzz: FuzzCase,
  credentials: Record<string, string>,
): Promise<Outcome> {
  const outcome = await sendOnce(baseUrl, fuzz, credentials);
  // A 503 is a backing service answering late on a loaded machine, and says to retry: one retry, then it counts.
  if (outcome.status !== 503) return outcome;
  await backOff(2_000);
  return sendOnce(baseUrl, fuzz, credentials);
}

async function sendOnce(
  baseUrl: string,
  fuzz: FuzzCase,
  credentials: Record<string, string>,
): Promise<Outcome> {
  const headers = { ...credentials, ...fuzz.headers };
  let body: string | Uint8Array | undefined;
  if (fuzz.body && fuzz.op.method !== 'GET') {
    if ('json' in fuzz.body) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(fuzz.body.json);
    } else {
      headers['content-type'] = fuzz.body.contentType;
      body = fuzz.body.raw;
    }
  }
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${fuzz.url}`, {
      method: fuzz.op.method,
      headers,
      body,
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    return { fuzz, status: 0, problem: `no answer: ${(error as Error).message}` };
  }
  const contentType = response.headers.get('content-type');
  if (contentType?.includes('text/event-stream')) {
    await response.body?.cancel();
    return { fuzz, status: response.status, problem: null };
  }
  const text = await response.text();
  if (response.status >= 500)
    return { fuzz, status: response.status, problem: `${response.status} ${text.slice(0, 200)}` };
  if (response.status < 400) return { fuzz, status: response.status, problem: null };
  const problem = envelopeProblem(fuzz.op.path, response.status, contentType, text);
  return {
    fuzz,
    status: response.status,
    problem: problem && `${response.status} ${problem}: ${text.slice(0, 160)}`,
  };
}

/** Waits until the database stops changing (two equal snapshots in a row), at most `capMs`. */
async function settle(snapshot: () => Promise<string>, capMs = 20_000): Promise<string> {
  const deadline = Date.now() + capMs;
  let last = await snapshot();
  while (Date.now() < deadline) {
    // Settled means nothing changed for a while: 400 ms outlasts the writes one request sets off.
    await quietPeriod(400);
    const now = await snapshot();
    if (now === last) return now;
    last = now;
  }
  return last;
}

/**
 * Runs the cases `batchSize` at a time. Around every batch whose cases were all refused the database must
 * be unchanged. A batch with an accepted case changed it legitimately: once that settles, its refused
 * cases are sent again on their own and checked then.
 */
export async function runFuzz(
  cases: FuzzCase[],
  send: (fuzz: FuzzCase) => Promise<Outcome>,
  snapshot: () => Promise<string>,
  batchSize = 8,
): Promise<FuzzReport> {
  const report: FuzzReport = { sent: 0, statuses: {}, refusedChecked: 0, failures: [] };
  const sendAll = async (batch: FuzzCase[]) => {
    const outcomes = await Promise.all(batch.map(send));
    report.sent += outcomes.length;
    for (const o of outcomes) {
      report.statuses[o.status] = (report.statuses[o.status] ?? 0) + 1;
      if (o.problem) report.failures.push(`${where(o.fuzz)} → ${o.problem}`);
    }
    return outcomes;
  };
  const checkUnchanged = async (before: string, outcomes: Outcome[]) => {
    const after = await snapshot();
    if (after !== before) {
      report.failures.push(
        `the database changed around refused requests ${outcomes.map((o) => `${where(o.fuzz)} → ${o.status}`).join('; ')}: ${snapshotDiff(before, after)}`,
      );
    }
    report.refusedChecked += outcomes.length;
  };
  let before = await settle(snapshot);
  for (let i = 0; i < cases.length; i += batchSize) {
    const outcomes = await sendAll(cases.slice(i, i + batchSize));
    if (outcomes.every((o) => o.status >= 400)) {
      await checkUnchanged(before, outcomes);
    } else {
      const refused = outcomes.filter((o) => o.status >= 400).map((o) => o.fuzz);
      before = await settle(snapshot);
      if (refused.length > 0) {
        const again = await Promise.all(refused.map(send));
        if (again.every((o) => o.status >= 400)) await checkUnchanged(before, again);
      }
    }
    before = await snapshot();
  }
  return report;
}
