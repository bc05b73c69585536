import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  CheckpointRestoreSubject,
  ID_PREFIXES,
  newId,
  type Actor,
  type RollbackResult,
  type RpcParsedRequest,
  CheckpointSubjects,
} from '@agentry/contracts';
import { CLOCK, REDIS, RpcClient, type Clock } from '@agentry/platform';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import type { EventRow } from '../event-log/event-row.js';
import { HandsBindings } from '../hands/hands-bindings.js';
import { CHECKPOINT_SQL as Q } from './checkpoints.sql.js';
import { CheckpointsRepository, type FoundCheckpoint } from './checkpoints.repository.js';

interface LockedSession {
  tenant_id: string;
  namespace_id: string;
  status: string;
  parent_session_id: string | null;
  has_input: boolean;
  has_threads: boolean;
  has_hands: boolean;
}

/** Event ids as the log spells them: a fork gives each copied event a new one and rewrites references. */
const EVENT_ID = /sevt_[0-9A-Za-z]+/g;
/** A restore of a large workspace is a few statements on one worker: roomier than a plain request. */
const RESTORE_TIMEOUT_MS = 120_000;

/**
 * Fork and rollback: a session's state at a checkpoint, as a new session or as the same one going on.
 * Both hold the session's row lock from the check that no turn runs to the end, so no turn starts in
 * between; the workspace is written into the durable copy by a worker (its owner).
 */
@Injectable()
export class SessionBranches {
  private readonly bindings: HandsBindings;

  constructor(
    private readonly checkpoints: CheckpointsRepository,
    private readonly rpc: RpcClient,
    private readonly publisher: EventPublisher,
    @Inject(REDIS) redis: Redis,
    @Inject(CLOCK) clock: Clock,
    @Inject(DATAPLANE_CONFIG) config: DataplaneEnv,
  ) {
    this.bindings = new HandsBindings(redis, config.AGENTRY_HANDS_BINDING_LEASE_MS, clock);
  }

  async fork(req: RpcParsedRequest<typeof CheckpointSubjects.fork>): Promise<{ id: string }> {
    const { actor, id: sourceId, target } = req;
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    const checkpoint = await this.checkpoints.inTransaction(async (client) => {
      const source = await lockAtBoundary(client, actor, sourceId, 'forked');
      if (source.has_threads)
        throw new AppError(
          'INVALID_REQUEST',
          `Session ${sourceId} has threads; a multi-agent session cannot be forked`,
        );
      const found = await findCheckpoint(client, sourceId, req.checkpointId, req.eventId);
      await client.query(Q.insertFork, [
        sourceId,
        target.id,
        target.agentId,
        target.agentVersion,
        JSON.stringify(target.spec),
        found.seq,
        actor.userId,
        actor.apiKeyId,
      ]);
      await copyLog(client, sourceId, target.id, source.tenant_id, found.seq);
      return found;
    });
    try {
      if (checkpoint.has_files) await this.restore(actor.tenantId, target.id, checkpoint.id);
    } catch (err) {
      // The fork without its files is not the checkpoint's state: it does not stay.
      await this.checkpoints.inTransaction((client) =>
        client.query('DELETE FROM sessions WHERE id = $1', [target.id]),
      );
      throw err;
    }
    return { id: target.id };
  }

  async rollback(req: RpcParsedRequest<typeof CheckpointSubjects.rollback>): Promise<RollbackResult> {
    const { actor, id: sessionId } = req;
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    const eventId = newId(ID_PREFIXES.sessionEvent);
    const row = await this.checkpoints.inTransaction(async (client) => {
      const session = await lockAtBoundary(client, actor, sessionId, 'rolled back');
      if (session.has_input)
        throw new AppError(
          'CONFLICT',
          `Session ${sessionId} has input waiting for a turn; wait until it is idle`,
        );
      const found = await findCheckpoint(client, sessionId, req.body.checkpoint, undefined);
      const compacted = await client.query<{ compacted: boolean }>(Q.compactedAfter, [sessionId, found.seq]);
      if (compacted.rows[0]?.compacted)
        throw new AppError(
          'CONFLICT',
          `Session ${sessionId} compacted its context after checkpoint ${found.id}; fork from it instead`,
        );
      if (found.has_files || session.has_hands) {
        await this.restore(actor.tenantId, sessionId, found.id);
        // A new binding epoch: the worker holding the session restores its local copy on the next call.
        await this.bindings.renew(actor.tenantId, sessionId);
      }
      const payload = { checkpoint_id: found.id, to_event_id: found.event_id, to_seq: found.seq };
      const { rows } = await client.query<EventRow>(Q.appendEvent, [
        sessionId,
        eventId,
        'session.rolled_back',
        JSON.stringify(payload),
      ]);
      return { event: rows[0]!, checkpointId: found.id };
    });
    this.publisher.published(sessionId, [toStoredEvent(row.event)]);
    return {
      type: 'session_rollback',
      session_id: sessionId,
      checkpoint_id: row.checkpointId,
      event_id: eventId,
    };
  }

  private async restore(tenantId: string, sessionId: string, checkpointId: string): Promise<void> {
    await this.rpc.request(
      CheckpointRestoreSubject,
      { tenantId, sessionId, checkpointId },
      { timeoutMs: RESTORE_TIMEOUT_MS },
    );
  }
}

async function lockAtBoundary(
  client: pg.PoolClient,
  actor: Actor,
  sessionId: string,
  verb: string,
): Promise<LockedSession> {
  const { rows } = await client.query<LockedSession>(Q.lockSession, [sessionId]);
  const session = rows[0];
  if (
    !session ||
    session.tenant_id !== actor.tenantId ||
    session.namespace_id !== actor.namespaceId ||
    session.parent_session_id !== null
  )
    throw new AppError('NOT_FOUND', `Session ${sessionId} not found`);
  if (session.status === 'running' || session.status === 'rescheduling')
    throw new AppError(
      'CONFLICT',
      `Session ${sessionId} is ${session.status} and cannot be ${verb}; only a turn boundary can (wait until it is idle)`,
    );
  return session;
}

async function findCheckpoint(
  client: pg.PoolClient,
  sessionId: string,
  checkpointId: string | undefined,
  eventId: string | undefined,
): Promise<FoundCheckpoint> {
  const { rows } = await client.query<FoundCheckpoint>(Q.find, [
    sessionId,
    checkpointId ?? null,
    eventId ?? null,
  ]);
  if (rows[0]) return rows[0];
  throw new AppError(
    'NOT_FOUND',
    checkpointId
      ? `checkpoint: ${checkpointId} is not a checkpoint of session ${sessionId}`
      : `event_id: ${eventId} is not the event of a checkpoint of session ${sessionId}`,
  );
}

/** The source's log up to `seq` as the fork's, each event under a new id (references rewritten). */
async function copyLog(
  client: pg.PoolClient,
  sourceId: string,
  targetId: string,
  tenantId: string,
  seq: number,
): Promise<void> {
  const { rows } = await client.query<{
    id: string;
    seq: number;
    type: string;
    payload: unknown;
    processed_at: Date | null;
    created_at: Date;
  }>(Q.logUpTo, [sourceId, seq]);
  const ids = new Map(rows.map((r) => [r.id, newId(ID_PREFIXES.sessionEvent)]));
  const renamed = (text: string) => text.replace(EVENT_ID, (id) => ids.get(id) ?? id);
  await client.query(Q.insertEvents, [
    targetId,
    tenantId,
    rows.map((r) => ids.get(r.id)!),
    rows.map((r) => r.seq),
    rows.map((r) => r.type),
    rows.map((r) => renamed(JSON.stringify(r.payload))),
    rows.map((r) => r.processed_at),
    rows.map((r) => r.created_at),
  ]);
}
