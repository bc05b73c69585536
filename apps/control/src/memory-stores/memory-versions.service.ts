import { Injectable } from '@nestjs/common';
import {
  AppError,
  type Actor,
  type ListMemoryVersionsParams,
  type MemoryVersion,
  type MemoryView,
  type Page,
} from '@agentry/contracts';
import type { MemoryVersion as VersionRow } from '@agentry/db';
import { decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { resumableById } from '../common/page-cursor.js';
import { FULL_VIEW_PAGE_MAX } from './memories.service.js';
import { sha256Hex, toMemoryVersionDto } from './memory.mapper.js';
import { MemoryStoresService } from './memory-stores.service.js';
import { MemoryVersionsRepository } from './memory-versions.repository.js';

@Injectable()
export class MemoryVersionsService {
  constructor(
    private readonly stores: MemoryStoresService,
    private readonly versions: MemoryVersionsRepository,
  ) {}

  async get(actor: Actor, storeId: string, id: string, view: MemoryView = 'full'): Promise<MemoryVersion> {
    return toMemoryVersionDto(await this.require(actor, storeId, id), view);
  }

  async list(actor: Actor, storeId: string, query: ListMemoryVersionsParams): Promise<Page<MemoryVersion>> {
    await this.stores.require(actor, storeId);
    const view = query.view ?? 'basic';
    const limit = view === 'full' ? Math.min(query.limit, FULL_VIEW_PAGE_MAX) : query.limit;
    const rows = await this.versions.list(actor, storeId, {
      memoryId: query.memory_id,
      operation: query.operation,
      sessionId: query.session_id,
      apiKeyId: query.api_key_id,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return resumableById({
      data: page.map((row) => toMemoryVersionDto(row, view)),
      next_page: rows.length > limit && last ? encodeCursor(last.id) : null,
    });
  }

  /**
   * Redacting any version of a memory removes its content from every version and from the memory
   * itself: content that must go (a leaked secret, personal data) is usually in more than one version.
   */
  async redact(actor: Actor, storeId: string, id: string): Promise<MemoryVersion> {
    await this.stores.requireWritable(actor, storeId);
    const version = await this.require(actor, storeId, id);
    await this.versions.redactMemory(actor, version.memoryId, sha256Hex(''));
    return toMemoryVersionDto(await this.require(actor, storeId, id), 'full');
  }

  private async require(actor: Actor, storeId: string, id: string): Promise<VersionRow> {
    await this.stores.require(actor, storeId);
    const row = await this.versions.find(actor, storeId, id);
    if (!row) throw new AppError('NOT_FOUND', `Memory version ${id} not found in memory store ${storeId}`);
    return row;
  }
}
