import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type FileMetadata,
  type ListFilesParams,
  type Page,
} from '@agentry/contracts';
import { assertCanWrite } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';
import { FilesRepository, type FileInfo } from './files.repository.js';

@Injectable()
export class FilesService {
  constructor(
    private readonly files: FilesRepository,
    @Inject(CONTROL_CONFIG) private readonly config: ControlEnv,
  ) {}

  async upload(
    actor: Actor,
    body: { filename: string; mime_type: string; content_base64: string },
  ): Promise<FileMetadata> {
    assertCanWrite(actor);
    const content = new Uint8Array(Buffer.from(body.content_base64, 'base64'));
    const max = this.config.AGENTRY_FILE_MAX_BYTES;
    if (content.byteLength > max) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `file: ${content.byteLength} bytes exceeds the limit of ${max} bytes`,
      );
    }
    const row = await this.files.create(actor, newId(ID_PREFIXES.file), {
      filename: baseName(body.filename),
      mimeType: body.mime_type,
      content,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    return toFileDto(row);
  }

  async get(actor: Actor, id: string): Promise<FileMetadata> {
    const row = await this.files.findInfo(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `File ${id} not found`);
    return toFileDto(row);
  }

  async download(
    actor: Actor,
    id: string,
  ): Promise<{ filename: string; mime_type: string; content_base64: string }> {
    const row = await this.files.findWithContent(actor, id);
    if (!row?.content) throw new AppError('NOT_FOUND', `File ${id} not found`);
    return {
      filename: row.filename,
      mime_type: row.mimeType,
      content_base64: Buffer.from(row.content).toString('base64'),
    };
  }

  async list(actor: Actor, query: ListFilesParams): Promise<Page<FileMetadata>> {
    // Uploads are never session-scoped here, so a scope filter matches nothing.
    if (query.scope_id) return { data: [], next_page: null };
    const rows = await this.files.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      ids: query.ids,
    });
    return toIdPage(rows, query.limit, toFileDto);
  }

  async delete(actor: Actor, id: string): Promise<{ id: string; type: 'file_deleted' }> {
    assertCanWrite(actor);
    await this.get(actor, id);
    await this.files.delete(actor, id);
    return { id, type: 'file_deleted' };
  }
}

function toFileDto(row: FileInfo): FileMetadata {
  return {
    type: 'file',
    id: row.id,
    filename: row.filename,
    mime_type: row.mimeType,
    size_bytes: Number(row.sizeBytes),
    scope: null,
    downloadable: true,
    expires_at: null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Only the final path component of an uploaded name is kept. */
function baseName(filename: string): string {
  return filename.split(/[\\/]/).pop() || 'unnamed';
}
