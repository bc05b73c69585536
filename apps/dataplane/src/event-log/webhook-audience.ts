import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PubSubjects } from '@agentry/contracts';
import { CLOCK, LOGGER, NatsBus, type Clock, type Logger } from '@agentry/platform';
import { SqlPool } from '../sql/sql-pool.js';

/** How long an answer is kept; it bounds how late a lost `webhooks.changed` can make a new endpoint. */
export const WEBHOOK_AUDIENCE_KEEP_MS = 30_000;

const HAS_ENDPOINTS = `SELECT EXISTS (
  SELECT 1 FROM webhooks w JOIN sessions s ON s.tenant_id = w.tenant_id AND s.namespace_id = w.namespace_id
  WHERE s.id = $1 AND w.enabled AND w.archived_at IS NULL) AS has`;

/**
 * Whether a session's namespace has a webhook endpoint its events could go to. Without one, a turn
 * queues no fan-out job (two a turn otherwise: a queue write here, three reads and a write in the
 * scheduler, all for nothing). Answers are kept a while per session; control announces every endpoint
 * created or enabled on `webhooks.changed` before it answers, and every kept answer is dropped then,
 * so the events after an endpoint's creation reach it. If the question fails, the events are queued
 * as before.
 */
@Injectable()
export class WebhookAudience implements OnModuleInit, OnModuleDestroy {
  private readonly answers = new Map<string, { has: Promise<boolean>; until: number }>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly sql: SqlPool,
    private readonly bus: NatsBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe(PubSubjects.webhooksChanged, () => this.forget());
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Answers given for the same session in order resolve in that order (they share one promise). */
  hasEndpoints(sessionId: string): Promise<boolean> {
    const now = this.clock.nowMs();
    const kept = this.answers.get(sessionId);
    if (kept && kept.until > now) return kept.has;
    const has = this.ask(sessionId);
    this.answers.set(sessionId, { has, until: now + WEBHOOK_AUDIENCE_KEEP_MS });
    this.dropExpired(now);
    return has;
  }

  /** An endpoint was announced: answers kept or still being asked may predate it. */
  forget(): void {
    this.answers.clear();
  }

  private async ask(sessionId: string): Promise<boolean> {
    try {
      const { rows } = await this.sql.query<{ has: boolean }>('webhook_audience', HAS_ENDPOINTS, [sessionId]);
      return rows[0]?.has === true;
    } catch (err) {
      this.logger.warn({ err, sessionId }, 'could not tell whether webhooks listen; queueing the events');
      return true;
    }
  }

  /** Keeps the map to the sessions that turned recently. */
  private dropExpired(now: number): void {
    if (this.answers.size < 4096) return;
    for (const [sessionId, answer] of this.answers) if (answer.until <= now) this.answers.delete(sessionId);
  }
}
