import { AppError } from '@agentry/contracts';
import type { FileStat } from '../port.js';
import { BaseWorkspaceFs, type BaseWorkspaceOptions } from '../core/base-workspace-fs.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { ancestorPaths, parentPath } from '../path/path-guard.js';
import { READ_AHEAD_MAX_FILE_BYTES, ReadAhead, type ReadAheadPlan, type ReadAheadRow } from './read-ahead.js';
import type { NamedSqlPort } from './sql-port.js';
import { likePrefix, workspaceFilesSql, type WorkspaceFilesSql } from './workspace-files.sql.js';
import { isWorkspaceTable, type WorkspaceTable } from './workspace-tables.js';

export interface PostgresWorkspaceOptions extends BaseWorkspaceOptions {
  sql: NamedSqlPort;
  tenantId: string;
  /** Scope key of this workspace (see scopeRootKey). */
  root: string;
  /**
   * Which workspace table holds the rows. Each has one writing service; a service that only reads
   * another's table passes `readOnly: true` (the ownership test checks every app's sources for this).
   */
  table: WorkspaceTable;
  /** Bytes per round trip when streaming (default 1 MiB). */
  streamChunkBytes?: number;
}

interface Row {
  path: string;
  kind: 'file' | 'dir';
  size: number | string;
  version: string;
  updated_ms: number;
}

/** An entry's row with its content (null for a directory). */
interface ContentRow extends Row {
  content: Uint8Array | null;
}

const ROOT_STAT = (): FileStat => ({
  path: '',
  kind: 'directory',
  size: 0,
  version: '0',
  modifiedAt: new Date(0),
});

function toStat(row: Row): FileStat {
  return {
    path: row.path,
    kind: row.kind === 'dir' ? 'directory' : 'file',
    size: Number(row.size),
    version: String(row.version),
    modifiedAt: new Date(row.updated_ms),
  };
}

const byPath = (a: FileStat, b: FileStat) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * A workspace stored in Postgres rows (one of the WORKSPACE_TABLES): no shared disk needed, safe with many replicas,
 * CAS writes and appends are single atomic statements.
 */
export class PostgresWorkspaceFs extends BaseWorkspaceFs {
  private readonly sql: NamedSqlPort;
  private readonly q: WorkspaceFilesSql;
  private readonly key: [string, string];
  /** Each statement's name: sent named, a statement is parsed once per connection, not on every call. */
  private readonly names: Map<string, string>;
  private readonly chunkBytes: number;
  private ahead: ReadAhead | undefined;

  constructor(options: PostgresWorkspaceOptions) {
    super(options);
    const table: unknown = options.table;
    if (!isWorkspaceTable(table)) throw WorkspaceErrors.invalid(`Unknown workspace table: ${String(table)}`);
    if (!options.root || !options.tenantId) throw WorkspaceErrors.invalid('tenantId and root are required');
    this.sql = options.sql;
    ({ q: this.q, names: this.names } = statementsOf(table));
    this.key = [options.tenantId, options.root];
    this.chunkBytes = options.streamChunkBytes ?? 1024 * 1024;
  }

  private run(text: string, params: unknown[], via: NamedSqlPort = this.sql) {
    return via.query({ name: this.names.get(text)!, text, values: [...this.key, ...params] });
  }

  /** The statement's rows, as the caller names their shape (an entry's row unless told). */
  private rows<R = Row>(text: string, ...params: unknown[]): Promise<R[]> {
    return this.rowsVia<R>(this.sql, text, params);
  }

  private async rowsVia<R>(via: NamedSqlPort, text: string, params: unknown[]): Promise<R[]> {
    try {
      return (await this.run(text, params, via)).rows as R[];
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw new AppError('ALREADY_EXISTS', 'Path already exists', { cause: error });
      throw new AppError('UNAVAILABLE', 'Workspace storage query failed', { cause: error, retryable: true });
    }
  }

  /**
   * Reads what `plan` names in one round trip; the next read of each of those paths is answered from it
   * (a turn's prelude reads a handful of well-known files, each once). A write drops what was read ahead.
   * `via`: other connections to read through than the workspace's own (a caller's faster lane).
   */
  async readAhead(plan: ReadAheadPlan, via: NamedSqlPort = this.sql): Promise<void> {
    const trees = (plan.trees ?? []).map(likePrefix);
    const rows = await this.rowsVia<ReadAheadRow>(via, this.q.readAhead, [
      plan.paths,
      plan.children ?? [],
      trees,
      READ_AHEAD_MAX_FILE_BYTES,
    ]);
    this.ahead = new ReadAhead(plan, rows);
  }

  protected async statAt(path: string): Promise<FileStat | null> {
    if (path === '') return ROOT_STAT();
    const known = this.ahead?.takeEntry(path);
    if (known !== undefined) return known ? toStat(known) : null;
    const [row] = await this.rows(this.q.stat, path);
    return row ? toStat(row) : null;
  }

  protected async readAt(path: string): Promise<Uint8Array> {
    if (path === '') throw WorkspaceErrors.isDirectory(path);
    const known = this.ahead?.takeContent(path);
    if (known) return new Uint8Array(known);
    if (this.ahead?.takeAbsent(path)) throw WorkspaceErrors.notFound(path);
    const [row] = await this.rows<ContentRow>(this.q.read, path);
    if (!row) throw WorkspaceErrors.notFound(path);
    if (row.kind === 'dir') throw WorkspaceErrors.isDirectory(path);
    return new Uint8Array(row.content ?? []);
  }

  override async *readStream(path: string): AsyncIterable<Uint8Array> {
    const target = await this.resolve(path);
    const stat = await this.statAt(target);
    if (!stat) throw WorkspaceErrors.notFound(target);
    if (stat.kind === 'directory') throw WorkspaceErrors.isDirectory(target);
    // Chunks are pinned to the version seen at the start, so a concurrent write cannot splice two contents.
    for (let offset = 0; offset < stat.size; offset += this.chunkBytes) {
      const [row] = await this.rows<{ chunk: Uint8Array }>(
        this.q.readChunk,
        target,
        offset + 1,
        this.chunkBytes,
        stat.version,
      );
      if (!row) throw WorkspaceErrors.conflict(target, stat.version, null);
      yield new Uint8Array(row.chunk);
    }
  }

  private async ensureParents(path: string, create: boolean): Promise<void> {
    const ancestors = ancestorPaths(path);
    if (ancestors.length === 0) return;
    const found = await this.rows(this.q.kindsOf, ancestors);
    const file = found.find((r) => r.kind === 'file');
    if (file) throw WorkspaceErrors.notDirectory(file.path);
    if (found.length === ancestors.length) return;
    if (!create) throw WorkspaceErrors.notFound(parentPath(path));
    await this.rows(this.q.insertDirs, ancestors, ancestors.map(parentPath));
  }

  private async explainMiss(path: string, fallback: (current: FileStat | null) => AppError): Promise<never> {
    const current = await this.statAt(path);
    if (current?.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
    throw fallback(current);
  }

  protected async writeAt(
    path: string,
    content: Uint8Array,
    ifVersion: string | null | undefined,
    createParents: boolean,
  ): Promise<FileStat> {
    this.ahead = undefined;
    await this.ensureParents(path, createParents);
    const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    let rows: Row[];
    if (ifVersion === undefined)
      rows = await this.rows(this.q.upsert, path, parentPath(path), bytes, bytes.length);
    else if (ifVersion === null)
      rows = await this.rows(this.q.create, path, parentPath(path), bytes, bytes.length);
    else if (!/^\d{1,18}$/.test(ifVersion)) rows = [];
    else rows = await this.rows(this.q.compareAndSet, path, bytes, bytes.length, ifVersion);
    if (rows[0]) return toStat(rows[0]);
    return this.explainMiss(path, (current) => {
      if (ifVersion === null && current) return WorkspaceErrors.exists(path);
      // An upsert only misses on a row this tenant cannot see: the root key is taken by another tenant.
      if (ifVersion === undefined)
        return new AppError('PERMISSION_DENIED', `Path belongs to another tenant: ${path}`);
      return WorkspaceErrors.conflict(path, ifVersion, current?.version ?? null);
    });
  }

  protected async appendAt(path: string, content: Uint8Array): Promise<FileStat> {
    this.ahead = undefined;
    await this.ensureParents(path, true);
    const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    const [row] = await this.rows(
      this.q.append,
      path,
      parentPath(path),
      bytes,
      bytes.length,
      this.maxFileBytes,
    );
    if (row) return toStat(row);
    return this.explainMiss(path, (current) =>
      WorkspaceErrors.tooLarge(path, (current?.size ?? 0) + bytes.length, this.maxFileBytes),
    );
  }

  protected async listAt(path: string, recursive: boolean): Promise<FileStat[]> {
    const known = this.ahead?.takeListing(path, recursive);
    const dir = await this.statAt(path);
    if (known && dir?.kind === 'directory') return known.map(toStat).sort(byPath);
    if (!dir) throw WorkspaceErrors.notFound(path);
    if (dir.kind !== 'directory') throw WorkspaceErrors.notDirectory(path);
    let rows: Row[];
    if (!recursive) rows = await this.rows(this.q.listChildren, path);
    else if (path === '') rows = await this.rows(this.q.listAll);
    else rows = await this.rows(this.q.listUnder, likePrefix(path));
    return rows.map(toStat).sort(byPath);
  }

  protected async moveAt(from: string, to: string, overwrite: boolean): Promise<void> {
    this.ahead = undefined;
    const source = await this.statAt(from);
    if (!source) throw WorkspaceErrors.notFound(from);
    const existing = await this.statAt(to);
    if (existing && (!overwrite || existing.kind === 'directory' || source.kind === 'directory'))
      throw WorkspaceErrors.exists(to);
    if (existing) await this.rows(this.q.deleteFileIfVersion, to, existing.version);
    await this.ensureParents(to, true);
    await this.rows(this.q.move, from, to, likePrefix(from), existing?.version ?? '0', parentPath(to));
  }

  protected async deleteAt(path: string, recursive: boolean): Promise<void> {
    this.ahead = undefined;
    if (recursive) {
      const result = await this.run(this.q.deleteTree, [path, likePrefix(path)]).catch((error: unknown) => {
        throw new AppError('UNAVAILABLE', 'Workspace storage query failed', {
          cause: error,
          retryable: true,
        });
      });
      if (!result.rowCount) throw WorkspaceErrors.notFound(path);
      return;
    }
    const deleted = await this.rows(this.q.deleteEmpty, path);
    if (deleted.length > 0) return;
    if (!(await this.statAt(path))) throw WorkspaceErrors.notFound(path);
    throw WorkspaceErrors.notEmpty(path);
  }

  protected async mkdirAt(path: string): Promise<void> {
    this.ahead = undefined;
    await this.ensureParents(path, true);
    const created = await this.rows(this.q.mkdir, path, parentPath(path));
    if (created.length > 0) return;
    if ((await this.statAt(path))?.kind === 'file') throw WorkspaceErrors.exists(path);
  }
}

/** Each table's statements and their names, built once: a turn opens a workspace or two, each of them. */
const STATEMENTS = new Map<WorkspaceTable, { q: WorkspaceFilesSql; names: Map<string, string> }>();

function statementsOf(table: WorkspaceTable): { q: WorkspaceFilesSql; names: Map<string, string> } {
  let built = STATEMENTS.get(table);
  if (!built) {
    const q = workspaceFilesSql(table);
    built = {
      q,
      names: new Map(Object.entries(q).map(([key, text]) => [text, `workspace.${table}.${key}`])),
    };
    STATEMENTS.set(table, built);
  }
  return built;
}
