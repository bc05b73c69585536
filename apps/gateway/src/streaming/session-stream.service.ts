import type { ServerResponse } from 'node:http';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Actor, DeltaType } from '@agentry/contracts';
import { CLOCK, LOGGER, NatsBus, type Clock, type Logger } from '@agentry/platform';
import { GATEWAY_CONFIG, type GatewayEnv } from '../config/env.js';
import { SessionChannel } from './session-channel.js';
import { SessionEventLog } from './session-event-log.js';
import { SseConnection } from './sse-connection.js';
import { SSE_HEARTBEAT, type SseFormat } from './sse-frame.js';
import { principalOf } from '../rate-limit/principal-key.js';
import { SseSlots } from '../rate-limit/sse-slots.js';

/** How often quiet channels are looked at; each is re-checked only after AGENTRY_SSE_RECHECK_MS of quiet. */
const SWEEP_MS = 1_000;

/**
 * SSE for every session this gateway streams: one `SessionChannel` (one NATS subscription) per
 * watched session, shared by all its clients. One heartbeat timer and one sweep timer serve every
 * connection, so an idle client costs its socket and a few fields, nothing per client on a timer.
 */
@Injectable()
export class SessionStreamService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly channels = new Map<string, SessionChannel>();
  private timers: NodeJS.Timeout[] = [];
  private stopReconnectWatch: () => void = () => undefined;

  constructor(
    private readonly bus: NatsBus,
    private readonly log: SessionEventLog,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly slots: SseSlots,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timers = [
      setInterval(() => this.heartbeat(), this.config.AGENTRY_SSE_HEARTBEAT_MS),
      setInterval(() => this.sweep(), SWEEP_MS),
    ];
    for (const timer of this.timers) timer.unref();
    // Messages published while this replica was disconnected never arrive: ask the log at once.
    this.stopReconnectWatch = this.bus.onReconnect(() => {
      for (const channel of this.channels.values()) channel.recheck();
    });
  }

  /** Ends every open stream before the HTTP server closes, which would otherwise wait on them. */
  beforeApplicationShutdown(): void {
    for (const channel of this.channels.values())
      for (const connection of channel.connections) connection.end();
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.stopReconnectWatch();
    for (const channel of this.channels.values()) channel.close();
    this.channels.clear();
  }

  /**
   * Streams the session to `response` until the client leaves: live from now, or resumed after `after`;
   * with token previews of the `deltas` types while they are produced; consent links withheld unless
   * `revealsConsent` (the caller created the session).
   */
  async run(
    actor: Actor,
    sessionId: string,
    after: number | null,
    response: ServerResponse,
    format: SseFormat,
    deltas: DeltaType[] = [],
    revealsConsent = true,
  ): Promise<void> {
    const connection = new SseConnection(
      response,
      format,
      this.config.AGENTRY_SSE_MAX_BUFFERED_BYTES,
      new Set(deltas),
      revealsConsent,
    );
    let release: () => void;
    try {
      release = await this.slots.acquire(principalOf({ actor }));
    } catch (error) {
      connection.fail(error);
      return;
    }
    // The slot is given back however the stream ends: the client leaves, or it never started.
    response.once('close', release);
    if (response.destroyed) release();
    let channel = this.channels.get(sessionId);
    if (!channel) {
      channel = new SessionChannel(sessionId, actor, this.bus, this.log, this.logger, this.clock);
      this.channels.set(sessionId, channel);
    }
    const joined = channel;
    response.once('close', () => this.leave(joined, connection));
    try {
      await joined.attach(connection, actor, after);
    } catch (error) {
      this.logger.warn({ sessionId, err: (error as Error).message }, 'sse stream could not start');
      connection.fail(error);
      this.leave(joined, connection);
    }
  }

  private leave(channel: SessionChannel, connection: SseConnection): void {
    channel.detach(connection);
    if (channel.connections.size > 0 || this.channels.get(channel.sessionId) !== channel) return;
    channel.close();
    this.channels.delete(channel.sessionId);
  }

  private heartbeat(): void {
    for (const channel of this.channels.values()) {
      for (const connection of channel.connections) if (connection.live) connection.write(SSE_HEARTBEAT);
    }
  }

  private sweep(): void {
    const quietSince = this.clock.nowMs() - this.config.AGENTRY_SSE_RECHECK_MS;
    for (const channel of this.channels.values()) if (channel.lastActivityAt <= quietSince) channel.recheck();
  }
}
