import {
  AppError,
  applyMetadataPatch,
  newId,
  type Actor,
  type IdPrefix,
  type ListParams,
  type Metadata,
  type MetadataPatch,
  type Page,
} from '@agentry/contracts';
import { decodeIdCursor } from '@agentry/contracts/v1';
import type { Clock } from '@agentry/platform';
import { assertCanWrite } from './access.js';
import type { ArchivableListOptions } from './namespaced-rows.js';
import { toIdPage } from './page-cursor.js';

/** Where a catalog records its creates, archives and deletes (the audit log, and so webhook events). */
export interface CatalogChanges {
  record(actor: Actor, change: { action: string; resourceType: string; resourceId: string }): Promise<void>;
}

/** The rows of a namespace-scoped, archivable catalog, as its repository reads and writes them. */
export interface ArchivableRows<Row, Fields> {
  create(actor: Actor, id: string, data: Fields): Promise<Row>;
  find(actor: Actor, id: string): Promise<Row | null>;
  list(actor: Actor, options: ArchivableListOptions): Promise<Row[]>;
  update(actor: Actor, id: string, data: Partial<Fields> | { archivedAt: Date }): Promise<Row>;
  delete(actor: Actor, id: string): Promise<void>;
}

/**
 * Get, list, archive and delete of a catalog whose rows live in one namespace and are archived before
 * they go (memory stores, vaults); what a create or an update writes, which differs per catalog, comes
 * from the subclass.
 */
export abstract class ArchivableCatalogService<
  Row extends { id: string; archivedAt: Date | null; metadata: unknown },
  Dto,
  Fields extends { metadata: Metadata },
> {
  protected constructor(
    private readonly rows: ArchivableRows<Row, Fields>,
    /** How messages name one row, e.g. "Vault". */
    private readonly noun: string,
    /** What an archived row refuses, for messages: e.g. "read-only". */
    private readonly archivedRule: string,
    protected readonly toDto: (row: Row) => Dto,
    protected readonly clock: Clock,
  ) {}

  /** Set by a catalog whose changes are recorded: the recorder and the audit resource type. */
  protected changes: { recorder: CatalogChanges; resourceType: string } | undefined;

  private async recorded(actor: Actor, action: string, id: string): Promise<void> {
    if (!this.changes) return;
    const { recorder, resourceType } = this.changes;
    await recorder.record(actor, { action, resourceType, resourceId: id });
  }

  async get(actor: Actor, id: string): Promise<Dto> {
    return this.toDto(await this.require(actor, id));
  }

  async require(actor: Actor, id: string): Promise<Row> {
    const row = await this.rows.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `${this.noun} ${id} not found`);
    return row;
  }

  /** The row, which must not be archived. */
  protected async requireUnarchived(actor: Actor, id: string): Promise<Row> {
    const row = await this.require(actor, id);
    if (row.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `${this.noun} ${id} is archived and ${this.archivedRule}`);
    return row;
  }

  /** A new row under a fresh id, for an actor who may write. */
  protected async insert(actor: Actor, idPrefix: IdPrefix, data: Fields): Promise<Dto> {
    assertCanWrite(actor);
    const row = await this.rows.create(actor, newId(idPrefix), data);
    await this.recorded(actor, 'create', row.id);
    return this.toDto(row);
  }

  /** Changes a row that is not archived: the `fields` given, and its metadata merged with `metadata`. */
  protected async patch(
    actor: Actor,
    id: string,
    fields: Partial<Omit<Fields, 'metadata'>>,
    metadata: MetadataPatch | null | undefined,
  ): Promise<Dto> {
    assertCanWrite(actor);
    const row = await this.requireUnarchived(actor, id);
    const patch = { ...fields, metadata: applyMetadataPatch(row.metadata as Metadata, metadata) };
    return this.toDto(await this.rows.update(actor, id, patch as Partial<Fields>));
  }

  /** Archiving twice returns the row as it is. */
  async archive(actor: Actor, id: string): Promise<Dto> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt) return this.toDto(row);
    const archived = await this.rows.update(actor, id, { archivedAt: this.clock.now() });
    await this.recorded(actor, 'archive', id);
    return this.toDto(archived);
  }

  async list(actor: Actor, query: ListParams): Promise<Page<Dto>> {
    const rows = await this.rows.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
    });
    return toIdPage(rows, query.limit, this.toDto);
  }

  /** Deletes the row (its children cascade) after checking the actor may and that it exists. */
  protected async remove(actor: Actor, id: string): Promise<void> {
    assertCanWrite(actor);
    await this.require(actor, id);
    await this.rows.delete(actor, id);
    await this.recorded(actor, 'delete', id);
  }
}
