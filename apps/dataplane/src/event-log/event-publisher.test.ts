import { describe, expect, it } from 'vitest';
import type { StoredEvent, WebhookEventJob } from '@agentry/contracts';
import { createLogger, type JobQueue, type NatsBus } from '@agentry/platform';
import type { DataplaneEnv } from '../config/env.js';
import { EventPublisher } from './event-publisher.js';
import type { WebhookAudience } from './webhook-audience.js';

const stored = (seq: number, type: string, extra: Record<string, unknown> = {}): StoredEvent =>
  ({
    seq,
    event: { id: `sevt_${seq}`, type, created_at: '2026-12-01T00:00:00.000Z', ...extra },
  }) as unknown as StoredEvent;

function publisherWith(hasEndpoints: boolean) {
  const published: string[] = [];
  const queued: string[] = [];
  const bus = { publish: (_subject: string, e: StoredEvent) => published.push(e.event.type) };
  const jobs = {
    enqueue: (_job: unknown, payload: WebhookEventJob) => {
      queued.push(payload.type);
      return Promise.resolve();
    },
  };
  const audience = { hasEndpoints: () => Promise.resolve(hasEndpoints) };
  const publisher = new EventPublisher(
    bus as unknown as NatsBus,
    jobs as unknown as JobQueue,
    audience as unknown as WebhookAudience,
    {} as DataplaneEnv,
    createLogger('test', 'error'),
  );
  return { publisher, published, queued };
}

const turn = [
  stored(1, 'session.status_running'),
  stored(2, 'agent.message'),
  stored(3, 'session.status_idle', { stop_reason: { type: 'end_turn' } }),
];

describe('the event publisher', () => {
  it('queues the webhook events of a turn, in order, when the namespace has an endpoint', async () => {
    const { publisher, published, queued } = publisherWith(true);
    publisher.published('sesn_1', turn);
    expect(published).toEqual(['session.status_running', 'agent.message', 'session.status_idle']);
    await expect.poll(() => queued).toEqual(['session.status_run_started', 'session.status_idled']);
  });

  it('streams every event but queues no webhook job for a namespace without endpoints', async () => {
    const { publisher, published, queued } = publisherWith(false);
    publisher.published('sesn_1', turn);
    expect(published).toHaveLength(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(queued).toEqual([]);
  });
});
