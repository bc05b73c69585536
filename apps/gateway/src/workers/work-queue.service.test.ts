import type { ArgumentsHost } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import { AppError, WorkSubjects, type Work, type WorkPrincipal } from '@agentry/contracts';
import { SystemClock, type Logger, type RpcClient } from '@agentry/platform';
import { HttpErrorFilter } from '../http/http-error.filter.js';
import { WorkQueueService } from './work-queue.service.js';

const PRINCIPAL: WorkPrincipal = {
  tenantId: 't1',
  namespaceId: 'ns1',
  environmentId: 'env_a',
  workId: null,
  sessionId: null,
};
const WORK = { id: 'work_1', state: 'active', latest_heartbeat_at: '2026-11-30T12:00:00.000Z' } as Work;

function queueWith(answer: (subject: string, payload: Record<string, unknown>) => unknown) {
  const calls: { subject: string; payload: Record<string, unknown> }[] = [];
  const rpc = {
    request(subject: { subject: string }, payload: Record<string, unknown>) {
      calls.push({ subject: subject.subject, payload });
      // Settles as the real client does: what `answer` throws arrives as a rejection.
      return new Promise((resolve) => resolve(answer(subject.subject, payload)));
    },
  };
  return { queue: new WorkQueueService(rpc as unknown as RpcClient, new SystemClock()), calls };
}

/** What the HTTP edge sends for an error: the test reads only its `error` object. */
interface SentError {
  status: number;
  body: { error: unknown };
}

/** Sends an error through the HTTP edge and returns what the client would receive. */
function sentThroughEdge(error: unknown): SentError {
  const sent = { status: 0, body: undefined as unknown };
  const reply = {
    raw: { headersSent: false },
    status: (code: number) => ((sent.status = code), { send: (body: unknown) => (sent.body = body) }),
  };
  const host = {
    switchToHttp: () => ({
      getResponse: () => reply,
      getRequest: () => ({ method: 'POST', url: '/x', requestId: 'req_1' }),
    }),
  };
  const quiet = { warn: () => undefined, error: () => undefined } as unknown as Logger;
  new HttpErrorFilter(quiet).catch(error, host as unknown as ArgumentsHost);
  return sent as SentError;
}

describe('WorkQueueService.heartbeat', () => {
  it("turns the dataplane's bare 412 into the one the SDK reads: error_code and the server's current_state", async () => {
    const { queue } = queueWith((subject) => {
      if (subject === WorkSubjects.heartbeat.subject)
        throw new AppError('PRECONDITION_FAILED', 'expected_last_heartbeat is stale');
      return WORK;
    });
    const error = await queue
      .heartbeat({ principal: PRINCIPAL, workId: 'work_1', expectedLastHeartbeat: 'NO_HEARTBEAT' })
      .catch((e: unknown) => e);
    const { status, body } = sentThroughEdge(error);
    expect(status).toBe(412);
    expect(body.error).toMatchObject({
      message: 'expected_last_heartbeat is stale',
      details: {
        error_code: 'heartbeat_precondition_failed',
        current_state: { state: 'active', last_heartbeat: WORK.latest_heartbeat_at },
      },
    });
  });

  it("keeps the dataplane's own current_state and passes other errors through untouched", async () => {
    const own = { state: 'stopping', ttl_seconds: 30, last_heartbeat: '2026-11-30T12:00:05.000Z' };
    const { queue, calls } = queueWith(() => {
      throw new AppError('PRECONDITION_FAILED', 'stale', { details: { current_state: own } });
    });
    const error = (await queue
      .heartbeat({ principal: PRINCIPAL, workId: 'work_1' })
      .catch((e: unknown) => e)) as AppError;
    expect(error.details).toEqual({ current_state: own, error_code: 'heartbeat_precondition_failed' });
    expect(calls.map((c) => c.subject)).toEqual([WorkSubjects.heartbeat.subject]);

    const missing = queueWith(() => {
      throw new AppError('NOT_FOUND', 'Work item work_9 not found');
    });
    const notFound = (await missing.queue
      .heartbeat({ principal: PRINCIPAL, workId: 'work_9' })
      .catch((e: unknown) => e)) as AppError;
    expect([notFound.code, notFound.details]).toEqual(['NOT_FOUND', undefined]);
  });
});

describe('WorkQueueService.longPoll', () => {
  it('returns the first item claimed', async () => {
    let polls = 0;
    const { queue } = queueWith(() => ({ work: ++polls === 2 ? WORK : null }));
    await expect(queue.longPoll(PRINCIPAL, 'w1', 5_000, new AbortController().signal)).resolves.toBe(WORK);
    expect(polls).toBe(2);
  });

  it('asks in polls of at most one second and no faster than one a second, then gives up empty', async () => {
    const { queue, calls } = queueWith(() => ({ work: null }));
    const started = Date.now();
    await expect(queue.longPoll(PRINCIPAL, 'w1', 1_500, new AbortController().signal)).resolves.toBeNull();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.payload.blockMs)).toEqual([1_000, expect.any(Number)]);
    expect(calls[1]!.payload.blockMs as number).toBeLessThanOrEqual(500);
  });

  it('stops waiting when the caller goes away', async () => {
    const { queue, calls } = queueWith(() => ({ work: null }));
    const gone = new AbortController();
    let answered = false;
    const polling = queue.longPoll(PRINCIPAL, 'w1', 20_000, gone.signal).finally(() => (answered = true));
    // The first claim came back empty: the caller leaves while the poll waits to ask again.
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    gone.abort();
    // Answered well before the second's pause between claims would have run out.
    await vi.waitFor(() => expect(answered).toBe(true), { timeout: 500 });
    await expect(polling).resolves.toBeNull();
    expect(calls).toHaveLength(1);
  });
});
