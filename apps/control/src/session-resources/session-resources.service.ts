import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type Actor,
  type AddSessionResourceRequest,
  CreateMemoryRequestSchema,
  type ListParams,
  type MemoryWriteBack,
  type Page,
  type RuntimeSessionResource,
  type SessionResource,
  type SessionResourceDeleted,
  type SessionResourceParams,
  type UpdateSessionResourceRequest,
} from '@agentry/contracts';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { FilesService } from '../files/files.service.js';
import { MemoriesService } from '../memory-stores/memories.service.js';
import { MemoryStoresService } from '../memory-stores/memory-stores.service.js';
import {
  assertDistinctMounts,
  prepareResource,
  toPublicResource,
  type PreparedResource,
} from './session-resource.records.js';
import { SessionResourceTokensRepository } from './session-resource-tokens.repository.js';
import { SessionResourcesRepository } from './session-resources.repository.js';

/** CMA's `resources[]` of a session: files, repositories (token sealed, never returned) and memory stores. */
@Injectable()
export class SessionResourcesService {
  constructor(
    private readonly sessions: SessionResourcesRepository,
    private readonly tokens: SessionResourceTokensRepository,
    private readonly files: FilesService,
    private readonly stores: MemoryStoresService,
    private readonly memories: MemoriesService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Checks what the resources name and builds their records; tokens go to `sealTokens` once the session exists. */
  async prepare(
    actor: Actor,
    params: SessionResourceParams[],
    existing: SessionResource[] = [],
  ): Promise<PreparedResource[]> {
    const stores = new Map<string, { name: string; description: string | null }>();
    for (const [i, p] of params.entries()) {
      if (p.type === 'file')
        await this.requireTarget(`resources[${i}].file_id`, () => this.files.get(actor, p.file_id));
      if (p.type === 'memory_store') {
        const store = await this.requireTarget(`resources[${i}].memory_store_id`, () =>
          this.stores.require(actor, p.memory_store_id),
        );
        if (store.archivedAt)
          throw new AppError(
            'INVALID_REQUEST',
            `resources[${i}].memory_store_id: memory store ${store.id} is archived`,
          );
        stores.set(store.id, { name: store.name, description: store.description });
      }
    }
    const prepared = params.map((p) =>
      prepareResource(p, { memoryStore: (id) => stores.get(id)! }, this.clock.now()),
    );
    assertDistinctMounts([...existing, ...prepared.map((p) => p.record)]);
    return prepared;
  }

  async sealTokens(tenantId: string, sessionId: string, prepared: PreparedResource[]): Promise<void> {
    for (const { record, token } of prepared)
      if (token && record.id) await this.tokens.put(tenantId, sessionId, record.id, token);
  }

  async list(actor: Actor, sessionId: string, query: ListParams): Promise<Page<SessionResource>> {
    const all = (await this.requireSession(actor, sessionId)).map(toPublicResource);
    const after = decodeIdCursor(query.page);
    const start = after ? all.findIndex((r) => r.id === after) + 1 : 0;
    const data = all.slice(start, start + query.limit);
    const last = data.at(-1);
    return { data, next_page: start + query.limit < all.length && last?.id ? encodeCursor(last.id) : null };
  }

  async get(actor: Actor, sessionId: string, id: string): Promise<SessionResource> {
    return toPublicResource(findResource(await this.requireSession(actor, sessionId), sessionId, id));
  }

  /** CMA adds files only while a session runs. */
  async add(actor: Actor, sessionId: string, body: AddSessionResourceRequest): Promise<SessionResource> {
    assertCanWrite(actor);
    const added = await this.sessions.change(actor, sessionId, async (current, row) => {
      assertOpen(row);
      const [prepared] = await this.prepare(actor, [body], current);
      return { next: [...current, prepared!.record], result: prepared!.record };
    });
    return toPublicResource(added ?? notFound(sessionId));
  }

  /** Rotates a repository's token; the reply shows the resource, never the token. */
  async update(
    actor: Actor,
    sessionId: string,
    id: string,
    body: UpdateSessionResourceRequest,
  ): Promise<SessionResource> {
    assertCanWrite(actor);
    const updated = await this.sessions.change(actor, sessionId, async (current, row) => {
      assertOpen(row);
      const target = findResource(current, sessionId, id);
      if (target.type !== 'github_repository') {
        throw new AppError(
          'INVALID_REQUEST',
          `authorization_token: resource ${id} is a ${target.type}; only github_repository resources hold a token`,
        );
      }
      await this.tokens.put(row.tenantId, sessionId, id, body.authorization_token);
      const record = { ...target, updated_at: this.clock.now().toISOString() };
      return { next: current.map((r) => (r.id === id ? record : r)), result: record };
    });
    return toPublicResource(updated ?? notFound(sessionId));
  }

  async delete(actor: Actor, sessionId: string, id: string): Promise<SessionResourceDeleted> {
    assertCanWrite(actor);
    const deleted = await this.sessions.change(actor, sessionId, async (current, row) => {
      assertOpen(row);
      findResource(current, sessionId, id);
      await this.tokens.remove(id);
      return {
        next: current.filter((r) => r.id !== id),
        result: { id, type: 'session_resource_deleted' as const },
      };
    });
    return deleted ?? notFound(sessionId);
  }

  /** Run time (dataplane → control): the resources with their tokens, for the Hands to mount. */
  async resolve(tenantId: string, sessionId: string): Promise<RuntimeSessionResource[]> {
    const row = await this.sessions.findSessionOfTenant(tenantId, sessionId);
    if (!row) throw new AppError('NOT_FOUND', `Session ${sessionId} not found`);
    const tokens = await this.tokens.openAll(tenantId, sessionId);
    return (row.resources as unknown[]).map(toPublicResource).map((resource) => {
      const token = resource.id ? tokens.get(resource.id) : undefined;
      return { resource, ...(token ? { authorization_token: token } : {}) };
    });
  }

  /**
   * Run time (worker → control): what a session's tools changed in a memory store it mounts read-write,
   * each change a memory version attributed to the session, under the store's path and size limits.
   */
  async writeMemories(
    req: MemoryWriteBack,
  ): Promise<Array<{ path: string; memory_id: string; operation: 'created' | 'modified' | 'deleted' }>> {
    const row = await this.sessions.findSessionOfTenant(req.tenantId, req.sessionId);
    if (!row) throw new AppError('NOT_FOUND', `Session ${req.sessionId} not found`);
    const mounted = (row.resources as unknown[])
      .map(toPublicResource)
      .find((r) => r.type === 'memory_store' && r.memory_store_id === req.memoryStoreId);
    if (!mounted || mounted.type !== 'memory_store')
      throw new AppError(
        'NOT_FOUND',
        `memory_store_id: session ${req.sessionId} does not mount memory store ${req.memoryStoreId}`,
      );
    if ((mounted.access ?? 'read_write') !== 'read_write') {
      throw new AppError(
        'PERMISSION_DENIED',
        `memory store ${req.memoryStoreId} is mounted read-only in session ${req.sessionId}`,
      );
    }
    for (const change of req.changes) {
      if (change.content === null) continue;
      const checked = CreateMemoryRequestSchema.safeParse({ path: change.path, content: change.content });
      if (!checked.success)
        throw new AppError(
          'INVALID_REQUEST',
          `${change.path}: ${checked.error.issues.map((i) => i.message).join('; ')}`,
        );
    }
    // The session writes as itself: a service actor of the session's tenant and namespace, attributed to the session.
    const actor: Actor = {
      tenantId: req.tenantId,
      namespaceId: row.namespaceId,
      userId: null,
      apiKeyId: null,
      role: 'member',
    };
    const written = [];
    for (const change of req.changes) {
      const done = await this.memories.writeByPath(actor, req.memoryStoreId, change, {
        type: 'session_actor',
        session_id: req.sessionId,
      });
      if (done) written.push({ path: change.path, ...done });
    }
    return written;
  }

  private async requireSession(actor: Actor, sessionId: string): Promise<SessionResource[]> {
    const row = await this.sessions.findSession(actor, sessionId);
    if (!row) notFound(sessionId);
    return row.resources as unknown as SessionResource[];
  }

  /** A missing file or store named by a request is the request's fault (400), not a missing route target. */
  private async requireTarget<T>(field: string, find: () => Promise<T>): Promise<T> {
    try {
      return await find();
    } catch (error) {
      // Still a 404, as for an id in the path: another namespace's file or store must look like a missing one.
      if (AppError.is(error) && error.code === 'NOT_FOUND')
        throw new AppError('NOT_FOUND', `${field}: ${error.message}`);
      throw error;
    }
  }
}

function findResource(all: SessionResource[], sessionId: string, id: string): SessionResource {
  const found = all.find((r) => r.id === id);
  if (!found) throw new AppError('NOT_FOUND', `Resource ${id} not found in session ${sessionId}`);
  return found;
}

function assertOpen(row: { id: string; archivedAt: Date | null }): void {
  if (row.archivedAt)
    throw new AppError(
      'INVALID_REQUEST',
      `Session ${row.id} is archived and its resources can no longer change`,
    );
}

function notFound(sessionId: string): never {
  throw new AppError('NOT_FOUND', `Session ${sessionId} not found`);
}
