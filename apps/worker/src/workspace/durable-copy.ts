import { randomInt } from 'node:crypto';
import { DURABLE_COPY_SQL as Q } from './durable-copy.sql.js';

/** The database surface the durable copy needs; a `pg.Pool` satisfies it. Rows are typed by the caller. */
/** A query by text, or a named one (prepared once per connection, then only bound and run). */
type Query = string | { name: string; text: string; values: unknown[] };

export interface SqlPort {
  query<R extends object = Record<string, unknown>>(
    query: Query,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** A row of `hands_workspace_files` as `list` reads it. */
interface EntryRow {
  path: string;
  kind: EntryKind;
  mode: number | string;
  link_target: string | null;
  size: number | string;
  version: number | string;
  chunked: boolean | null;
}

/** A content read: the row's path and its bytes. */
interface ContentRow {
  path: string;
  content: Buffer;
}

/** Who may write a session's durable copy: the worker its Hands binding names, under that binding's epoch. */
export interface HandsBindingToken {
  tenantId: string;
  sessionId: string;
  epoch: number;
  workerId: string;
}

export type EntryKind = 'file' | 'dir' | 'symlink';

export interface StoredEntry {
  path: string;
  kind: EntryKind;
  mode: number;
  target: string | null;
  size: number;
  version: string;
  /** Content kept in chunks beside the row (a large file), not inline. */
  chunked: boolean;
}

export interface EntryWrite {
  path: string;
  kind: EntryKind;
  mode: number;
  target?: string;
  content?: Buffer;
  size: number;
}

/** A write of the durable copy was refused: another binding (a newer epoch) holds the session now. */
export class FencedOutError extends Error {
  readonly code = 'HANDS_FENCED_OUT';
  constructor(readonly sessionId: string) {
    super(`Another worker holds session ${sessionId} now; this worker's changes were not saved`);
  }
}

const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * One root of a session's durable Hands workspace in Postgres (`hands_workspace_files`, with large files'
 * content in `hands_workspace_chunks`), written only under the session's fence (see durable-copy.sql.ts).
 */
export class DurableCopy {
  constructor(
    private readonly sql: SqlPort,
    private readonly binding: HandsBindingToken,
    private readonly root: string,
  ) {}

  /** Takes the session over for `binding`; `claimed` is false when a newer binding holds it already. */
  static async claim(
    sql: SqlPort,
    { tenantId, sessionId, epoch, workerId }: HandsBindingToken,
  ): Promise<{ claimed: boolean; previousWorker: string | null }> {
    const { rows } = await sql.query<{ claimed: number; previous_worker: string | null }>(Q.claim, [
      tenantId,
      sessionId,
      epoch,
      workerId,
    ]);
    return { claimed: rows[0]?.claimed === 1, previousWorker: rows[0]?.previous_worker ?? null };
  }

  /** Drops everything stored for a deleted session, whoever held it. */
  static async forget(sql: SqlPort, tenantId: string, sessionId: string, roots: string[]): Promise<void> {
    await sql.query(Q.forgetFence, [tenantId, sessionId]);
    await sql.query(Q.forgetChunks, [roots]);
    await sql.query(Q.forgetFiles, [roots]);
  }

  async putEntries(entries: readonly EntryWrite[]): Promise<void> {
    if (entries.length === 0) return;
    await this.fenced('putEntries', [
      entries.map((e) => e.path),
      entries.map((e) => parentOf(e.path)),
      entries.map((e) => e.kind),
      entries.map((e) => e.mode),
      entries.map((e) => e.target ?? null),
      entries.map((e) => (e.kind === 'file' ? (e.content ?? Buffer.alloc(0)) : null)),
      entries.map((e) => e.size),
    ]);
  }

  /** Stores a large file chunk by chunk under a new version, published only once every chunk is in. */
  async putLarge(path: string, mode: number, chunks: AsyncIterable<Buffer>): Promise<number> {
    // Any value unlike the current one: chunks of an upload that never published are dropped by the next.
    const version = randomInt(1, 2 ** 47);
    let seq = 0;
    let size = 0;
    for await (const chunk of chunks) {
      await this.fenced('putChunk', [path, version, seq++, chunk]);
      size += chunk.length;
    }
    await this.fenced('publishLarge', [path, parentOf(path), mode, version, size]);
    return size;
  }

  async remove(paths: readonly string[]): Promise<void> {
    if (paths.length > 0) await this.fenced('removeEntries', [paths]);
  }

  async list(): Promise<StoredEntry[]> {
    const { rows } = await this.sql.query<EntryRow>(Q.list, [this.root]);
    return rows.map((r) => ({
      path: r.path,
      kind: r.kind,
      mode: Number(r.mode),
      target: r.link_target,
      size: Number(r.size),
      version: String(r.version),
      chunked: r.kind === 'file' && r.chunked === true,
    }));
  }

  async contents(paths: readonly string[]): Promise<Map<string, Buffer>> {
    const { rows } = await this.sql.query<ContentRow>(Q.contents, [this.root, paths]);
    return new Map(rows.map((r) => [r.path, r.content]));
  }

  /** A large file's content, chunk by chunk, as the version listed. */
  async *chunksOf(entry: StoredEntry): AsyncIterable<Buffer> {
    let read = 0;
    for (let seq = 0; read < entry.size; seq++) {
      const { rows } = await this.sql.query<{ content: Buffer }>(Q.chunk, [
        this.root,
        entry.path,
        entry.version,
        seq,
      ]);
      const content = rows[0]?.content;
      if (!content || content.length === 0) throw new Error(`chunk ${seq} of ${entry.path} is missing`);
      read += content.length;
      yield content;
    }
  }

  /**
   * One fenced write: named, so each connection plans it once; these run after every call that changed
   * files, where parsing and planning the statement again cost more than running it.
   */
  private async fenced(
    statement: 'putEntries' | 'putChunk' | 'publishLarge' | 'removeEntries',
    params: unknown[],
  ): Promise<void> {
    const { tenantId, sessionId, epoch, workerId } = this.binding;
    const { rows } = await this.sql.query<{ held: number }>({
      name: `durable-copy.${statement}`,
      text: Q[statement],
      values: [tenantId, sessionId, epoch, workerId, this.root, ...params],
    });
    if (rows[0]?.held !== 1) throw new FencedOutError(sessionId);
  }
}
