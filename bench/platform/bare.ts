/**
 * The bare baseline, measured in the same run as the platform: what the physical parts cost with
 * nothing of ours in between.
 *   bare turn  six events, each its own Postgres transaction (`UPDATE … RETURNING` for the seq + an
 *              insert), each published on NATS; a subscriber receives them; the turn ends at the sixth.
 *   bare SSE   a Fastify server: POST appends one event the same way and publishes it; one NATS
 *              subscription per session fans out in-process to its SSE clients.
 *   bare GET   a Fastify route reading an agent and its head version with `pg`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';

/** A row as `SELECT *` returns it; an agent's names the version row to read. */
type Row = Record<string, unknown>;
type AgentRow = Row & { head_version: number };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Bare {
  private readonly streams = new Map<string, Set<ServerResponse>>();
  private readonly turnWaiters = new Map<string, { left: number; done: () => void }>();
  private server: FastifyInstance | undefined;
  url = '';

  private constructor(
    private readonly pool: pg.Pool,
    private readonly nats: NatsConnection,
    private readonly prefix: string,
  ) {}

  static async start(databaseUrl: string, natsUrl = 'nats://127.0.0.1:4222'): Promise<Bare> {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle connection cut when the bench database is dropped is expected, not a failure of the run.
    pool.on('error', () => undefined);
    await pool.query(
      `CREATE TABLE IF NOT EXISTS bench_sessions (id text PRIMARY KEY, last_seq bigint NOT NULL DEFAULT 0)`,
    );
    await pool.query(`CREATE TABLE IF NOT EXISTS bench_events (session_id text NOT NULL, seq bigint NOT NULL, type text NOT NULL,
      payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (session_id, seq))`);
    const nats = await connect({ servers: natsUrl });
    const bare = new Bare(pool, nats, `bare${randomBytes(4).toString('hex')}`);
    bare.nats.subscribe(`${bare.prefix}.evt.*`, {
      callback: (_error, message) =>
        bare.delivered(message.subject.split('.').pop()!, decoder.decode(message.data)),
    });
    await bare.nats.flush();
    await bare.listen();
    return bare;
  }

  async createSession(): Promise<string> {
    const id = `s${randomBytes(8).toString('hex')}`;
    await this.pool.query('INSERT INTO bench_sessions (id) VALUES ($1)', [id]);
    return id;
  }

  /** One event: its own transaction, seq from `UPDATE … RETURNING`, then a NATS publish. */
  async append(sessionId: string, type: string, payload: Record<string, unknown>): Promise<number> {
    const client = await this.pool.connect();
    let seq: number;
    try {
      await client.query('BEGIN');
      const bumped = await client.query<{ last_seq: string | number }>(
        'UPDATE bench_sessions SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq',
        [sessionId],
      );
      seq = Number(bumped.rows[0]!.last_seq);
      await client.query(
        'INSERT INTO bench_events (session_id, seq, type, payload) VALUES ($1, $2, $3, $4)',
        [sessionId, seq, type, payload],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    this.nats.publish(
      `${this.prefix}.evt.${sessionId}`,
      encoder.encode(JSON.stringify({ seq, type, ...payload })),
    );
    return seq;
  }

  /** The bare turn: six events in sequence; resolves when the subscriber has received all six. */
  async turn(sessionId: string): Promise<void> {
    const received = new Promise<void>((done) => this.turnWaiters.set(sessionId, { left: 6, done }));
    const types = [
      'session.status_running',
      'span.model_request_start',
      'agent.message',
      'span.model_request_end',
      'session.usage',
      'session.status_idle',
    ];
    for (const type of types) await this.append(sessionId, type, { text: 'You said: hello' });
    await received;
  }

  private delivered(sessionId: string, data: string): void {
    const waiter = this.turnWaiters.get(sessionId);
    if (waiter && --waiter.left === 0) {
      this.turnWaiters.delete(sessionId);
      waiter.done();
    }
    const clients = this.streams.get(sessionId);
    if (!clients) return;
    const parsed = JSON.parse(data) as { seq: number; type: string };
    const frame = `id: ${parsed.seq}\nevent: ${parsed.type}\ndata: ${data}\n\n`;
    for (const response of clients) response.write(frame);
  }

  private async listen(): Promise<void> {
    const app = Fastify();
    app.post('/s/:id/events', async (request) => {
      const { id } = request.params as { id: string };
      const seq = await this.append(id, 'user.message', request.body as Record<string, unknown>);
      return { seq };
    });
    app.get('/s/:id/stream', (request, reply) => {
      const { id } = request.params as { id: string };
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(': ping\n\n');
      let clients = this.streams.get(id);
      if (!clients) this.streams.set(id, (clients = new Set()));
      clients.add(response);
      response.on('close', () => clients.delete(response));
    });
    app.get('/agents/:id', async (request) => {
      const { id } = request.params as { id: string };
      const agent = await this.pool.query<AgentRow>('SELECT * FROM agents WHERE id = $1', [id]);
      const version = await this.pool.query<Row>(
        'SELECT * FROM agent_versions WHERE agent_id = $1 AND version = $2',
        [id, agent.rows[0]!.head_version],
      );
      return { ...agent.rows[0], version: version.rows[0] };
    });
    this.url = await app.listen({ port: 0, host: '127.0.0.1' });
    this.server = app;
  }

  async stop(): Promise<void> {
    for (const clients of this.streams.values()) for (const response of clients) response.destroy();
    await Promise.allSettled([this.server?.close(), this.nats.close(), this.pool.end()]);
  }
}
