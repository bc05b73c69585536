import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateMemoryRequest,
  type ListMemoriesParams,
  type Memory,
  type MemoryActor,
  type MemoryListItem,
  type MemoryView,
  type Page,
  type UpdateMemoryRequest,
} from '@agentry/contracts';
import { decodeCursor, encodeCursor } from '@agentry/contracts/v1';
import { foldByDepth } from './memory-listing.js';
import { resumableAfter } from '@agentry/platform';
import { byteSize, sha256Hex, toMemoryActor, toMemoryDto } from './memory.mapper.js';
import { MemoriesRepository, type MemoryWithHead, type MemoryWrite } from './memories.repository.js';
import { MemoryStoresService } from './memory-stores.service.js';

/** Pages that carry content are capped, as CMA does. */
export const FULL_VIEW_PAGE_MAX = 20;

@Injectable()
export class MemoriesService {
  constructor(
    private readonly stores: MemoryStoresService,
    private readonly memories: MemoriesRepository,
  ) {}

  /** Creates the memory at a path; a path whose memory was deleted starts a new version of that memory. */
  async create(
    actor: Actor,
    storeId: string,
    body: CreateMemoryRequest,
    view: MemoryView = 'basic',
  ): Promise<Memory> {
    await this.stores.requireWritable(actor, storeId);
    const existing = await this.memories.findByPath(actor, storeId, body.path);
    if (existing && !existing.deletedAt) {
      throw new AppError('CONFLICT', `path: a memory already exists at ${body.path} (${existing.id})`, {
        details: { memory_id: existing.id },
      });
    }
    const write = this.write(actor, body.path, body.content ?? '', 'created');
    const row = existing
      ? await this.guard(() => this.memories.write(actor, existing, write))
      : await this.guard(() => this.memories.create(actor, storeId, newId(ID_PREFIXES.memory), write));
    return toMemoryDto(row, view);
  }

  /**
   * Makes the memory at `path` hold `content` (null: deleted) on behalf of `by` (a session writing through its
   * mount): a new version when something changes, nothing when the memory already is so. The memory must still
   * hold what the session's copy held (`base_content_sha256`, null for a memory the session created).
   */
  async writeByPath(
    actor: Actor,
    storeId: string,
    change: { path: string; content: string | null; base_content_sha256: string | null },
    by: MemoryActor,
  ): Promise<{ memory_id: string; operation: MemoryWrite['operation'] } | null> {
    await this.stores.requireWritable(actor, storeId);
    const existing = await this.memories.findByPath(actor, storeId, change.path);
    const live = existing && !existing.deletedAt ? existing : null;
    if (live && live.content === change.content) return null;
    // The session changed the copy it was given: the memory must still be what that copy was.
    if ((live ? (live.contentSha256 ?? sha256Hex(live.content)) : null) !== change.base_content_sha256) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `${change.path}: the memory was changed by someone else since this session's copy was made`,
      );
    }
    if (change.content === null) {
      if (!live) return null;
      await this.guard(() =>
        this.memories.write(actor, live, {
          ...this.write(actor, live.path, live.content, 'deleted'),
          createdBy: by,
        }),
      );
      return { memory_id: live.id, operation: 'deleted' };
    }
    const operation = live ? 'modified' : 'created';
    const write = { ...this.write(actor, change.path, change.content, operation), createdBy: by };
    const row = existing
      ? await this.guard(() => this.memories.write(actor, existing, write))
      : await this.guard(() => this.memories.create(actor, storeId, newId(ID_PREFIXES.memory), write));
    return { memory_id: row.memory.id, operation };
  }

  async get(actor: Actor, storeId: string, id: string, view: MemoryView = 'full'): Promise<Memory> {
    return toMemoryDto(await this.requireLive(actor, storeId, id), view);
  }

  async update(
    actor: Actor,
    storeId: string,
    id: string,
    body: UpdateMemoryRequest,
    view: MemoryView = 'basic',
  ): Promise<Memory> {
    await this.stores.requireWritable(actor, storeId);
    const { memory } = await this.requireLive(actor, storeId, id);
    const expected = body.precondition?.content_sha256;
    if (expected && expected !== memory.contentSha256) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `precondition.content_sha256: memory ${id} has changed since that hash was read`,
      );
    }
    const path = body.path ?? memory.path;
    if (path !== memory.path) {
      const taken = await this.memories.findByPath(actor, storeId, path);
      if (taken) throw new AppError('CONFLICT', `path: ${path} is already used by memory ${taken.id}`);
    }
    const content = body.content === undefined || body.content === null ? memory.content : body.content;
    const row = await this.guard(() =>
      this.memories.write(actor, memory, this.write(actor, path, content, 'modified')),
    );
    return toMemoryDto(row, view);
  }

  async delete(actor: Actor, storeId: string, id: string): Promise<{ id: string; type: 'memory_deleted' }> {
    await this.stores.requireWritable(actor, storeId);
    const { memory } = await this.requireLive(actor, storeId, id);
    await this.guard(() =>
      this.memories.write(actor, memory, this.write(actor, memory.path, memory.content, 'deleted')),
    );
    return { id, type: 'memory_deleted' };
  }

  async list(actor: Actor, storeId: string, query: ListMemoriesParams): Promise<Page<MemoryListItem>> {
    await this.stores.require(actor, storeId);
    const prefix = query.path_prefix ?? '/';
    const rows = await this.memories.listLive(actor, storeId, prefix);
    const view = query.view ?? 'basic';
    const entries = foldByDepth(
      rows.map((row) => ({ path: row.memory.path, item: toMemoryDto(row, view) })),
      prefix,
      query.depth,
    );
    if (query.order === 'desc') entries.reverse();
    // Memory listings page by path: the cursor holds the last path shown.
    const after = decodeCursor(query.page);
    const rest =
      after === undefined
        ? entries
        : entries.filter((e) => (query.order === 'desc' ? e.path < after : e.path > after));
    const limit = view === 'full' ? Math.min(query.limit, FULL_VIEW_PAGE_MAX) : query.limit;
    const page = rest.slice(0, limit);
    const last = page.at(-1);
    const result = {
      data: page.map((e) => e.item),
      next_page: rest.length > limit && last ? encodeCursor(last.path) : null,
    };
    return resumableAfter(result, (item) => encodeCursor(item.path));
  }

  async requireAny(actor: Actor, storeId: string, id: string): Promise<MemoryWithHead> {
    await this.stores.require(actor, storeId);
    const row = await this.memories.find(actor, storeId, id);
    if (!row) throw new AppError('NOT_FOUND', `Memory ${id} not found in memory store ${storeId}`);
    return row;
  }

  private async requireLive(actor: Actor, storeId: string, id: string): Promise<MemoryWithHead> {
    const row = await this.requireAny(actor, storeId, id);
    if (row.memory.deletedAt) throw new AppError('NOT_FOUND', `Memory ${id} was deleted`);
    return row;
  }

  private write(
    actor: Actor,
    path: string,
    content: string,
    operation: MemoryWrite['operation'],
  ): MemoryWrite {
    return {
      path,
      content,
      contentSha256: sha256Hex(content),
      sizeBytes: byteSize(content),
      versionId: newId(ID_PREFIXES.memoryVersion),
      operation,
      createdBy: toMemoryActor(actor),
    };
  }

  /** A concurrent writer shows up as a moved head (P2025) or a taken path (P2002). */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'P2025')
        throw new AppError(
          'VERSION_CONFLICT',
          'The memory was changed concurrently; read it again and retry',
          { cause: err },
        );
      if (code === 'P2002')
        throw new AppError('CONFLICT', 'Another memory already uses that path', { cause: err });
      throw err;
    }
  }
}
