import { randomUUID } from 'node:crypto';
import { replicaBeatSubject } from '@agentry/contracts';
import { connect, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { natsConnectionOptions } from './nats-connection-options.js';
import type { NatsConnections } from './nats-connections.js';
import { REPLICA_HEADER, type ReplicaWatch } from './replica-router.js';

export interface RpcClientOptions {
  servers?: string | string[];
  name?: string;
}

/** What `RpcClient` sends requests through. */
export interface RpcTransport {
  request(
    subject: string,
    data: unknown,
    options: {
      timeoutMs: number;
      headers?: MsgHdrs;
      /** Hears which replica answered, when the reply names one (see ReplicaRouter). */
      onReplyFrom?: (replicaId: string | undefined) => void;
    },
  ): Promise<unknown>;
  /** Hears the beats of one service's replicas (see ReplicaRouter); a transport may not offer it. */
  watchReplicas?: ReplicaWatch;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

/**
 * Client side of {@link PrefixedServerNats}, on nats.js: each request is one NATS request over the
 * connection's shared reply subscription, under the installation prefix, in the packet the server reads
 * (`{ pattern, data, id }`). The connection reconnects forever with backoff; requests made while NATS is
 * away fail fast as unavailable.
 */
export class PrefixedClientNats implements RpcTransport {
  private connection?: Promise<NatsConnection>;
  private readonly linkName: string;

  constructor(
    private readonly options: RpcClientOptions,
    private readonly subjectPrefix: string,
    private readonly connections?: NatsConnections,
  ) {
    this.linkName = options.name ?? 'rpc-client';
  }

  /** Connects once; a failed first attempt is tried again by the next call. */
  connect(): Promise<NatsConnection> {
    this.connection ??= connect(
      natsConnectionOptions(this.options.servers ?? 'nats://127.0.0.1:4222', this.linkName),
    ).then(
      (connection) => {
        this.connections?.track(this.linkName, connection);
        return connection;
      },
      (error: unknown) => {
        this.connection = undefined;
        throw error;
      },
    );
    return this.connection;
  }

  /**
   * One request and its reply's `response`. Rejects on a transport error (`err`), a reply without a
   * response, no responder, or the timeout.
   */
  async request(
    subject: string,
    data: unknown,
    options: Parameters<RpcTransport['request']>[2],
  ): Promise<unknown> {
    const connection = await this.connect();
    const body = encoder.encode(JSON.stringify({ pattern: subject, data, id: randomUUID() }));
    const message = await connection.request(this.subjectPrefix + subject, body, {
      timeout: options.timeoutMs,
      ...(options.headers ? { headers: options.headers } : {}),
    });
    options.onReplyFrom?.(message.headers?.get(REPLICA_HEADER) || undefined);
    const { err, response } = message.json<{ err?: unknown; response?: unknown }>();
    if (err !== undefined && err !== null) throw new Error(`Transport error on ${subject}`, { cause: err });
    if (response === undefined) throw new Error(`No response to ${subject}`);
    return response;
  }

  readonly watchReplicas: ReplicaWatch = (service, onBeat) => {
    void this.connect().then(
      (connection) =>
        connection.subscribe(this.subjectPrefix + replicaBeatSubject(service), {
          callback: (error, msg) => {
            if (!error && msg.data.length > 0) onBeat(msg.string());
          },
        }),
      // Not connected: requests go to the queue group, as before any beat is heard.
      () => undefined,
    );
  };

  async close(): Promise<void> {
    this.connections?.untrack(this.linkName);
    const pending = this.connection;
    this.connection = undefined;
    const connection = await pending?.catch(() => undefined);
    await connection?.close();
  }
}
