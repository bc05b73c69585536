import { Injectable } from '@nestjs/common';
import { handsDurableRoots } from '@agentry/contracts';
import type pg from 'pg';
import { SqlPool } from '../sql/sql-pool.js';
import { CHECKPOINT_SQL as Q } from './checkpoints.sql.js';

export interface CheckpointRow {
  id: string;
  session_id: string;
  event_id: string;
  seq: number;
  created_at: Date;
}

export interface FoundCheckpoint {
  id: string;
  event_id: string;
  seq: number;
  has_files: boolean;
}

/** Checkpoint rows and their content-addressed workspace (see checkpoints.sql.ts). */
@Injectable()
export class CheckpointsRepository {
  constructor(private readonly sql: SqlPool) {}

  /**
   * Stores the session's workspace as checkpoint `id`, not yet sealed on an event: one statement for the
   * checkpoint and its entries, and the tenant's lock only when there is content to store.
   */
  async capture(tenantId: string, sessionId: string, id: string): Promise<void> {
    const roots = handsDurableRoots(tenantId, sessionId);
    const { rows } = await this.sql.pool.query<{ has_content: boolean }>(Q.capture, [
      tenantId,
      roots.workspace,
      roots.shellState,
      id,
      sessionId,
    ]);
    if (!rows[0]?.has_content) return;
    await this.inTransaction(async (client) => {
      await client.query(Q.lockShared, [tenantId]);
      await client.query(Q.storeBlobs, [tenantId, roots.workspace, roots.shellState]);
    });
  }

  /** Seals checkpoint `id` on its event and keeps the newest `keep`; true when older ones were dropped. */
  async sealAndPrune(id: string, eventId: string, keep: number): Promise<boolean> {
    const { rows } = await this.sql.pool.query<{ pruned: number }>(Q.sealAndPrune, [id, eventId, keep]);
    return (rows[0]?.pruned ?? 0) > 0;
  }

  async drop(id: string): Promise<void> {
    await this.sql.pool.query(Q.drop, [id]);
  }

  /** Drops the tenant's blobs no checkpoint names (after checkpoints or their sessions were deleted). */
  async sweep(tenantId: string): Promise<void> {
    await this.inTransaction(async (client) => {
      await client.query(Q.lockExclusive, [tenantId]);
      await client.query(Q.sweepBlobs, [tenantId]);
    });
  }

  async visible(sessionId: string, tenantId: string, namespaceId: string): Promise<boolean> {
    return (await this.sql.pool.query(Q.visible, [sessionId, tenantId, namespaceId])).rowCount === 1;
  }

  async list(sessionId: string, limit: number): Promise<CheckpointRow[]> {
    return (await this.sql.pool.query<CheckpointRow>(Q.list, [sessionId, limit])).rows;
  }

  async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.sql.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}
