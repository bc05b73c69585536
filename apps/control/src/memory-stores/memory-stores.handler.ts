import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { MemoriesService } from './memories.service.js';
import { MemoryStoresService } from './memory-stores.service.js';
import { MemoryVersionsService } from './memory-versions.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('stores', {
  create: S.createMemoryStore,
  get: S.getMemoryStore,
  update: S.updateMemoryStore,
  list: S.listMemoryStores,
  archive: S.archiveMemoryStore,
  delete: S.deleteMemoryStore,
})
export class MemoryStoresHandler {
  constructor(
    readonly stores: MemoryStoresService,
    private readonly memories: MemoriesService,
    private readonly versions: MemoryVersionsService,
  ) {}

  @RpcHandler(S.createMemory)
  createMemory(req: RpcParsedRequest<typeof S.createMemory>) {
    return this.memories.create(req.actor, req.storeId, req.body, req.query.view);
  }

  @RpcHandler(S.getMemory)
  getMemory(req: RpcParsedRequest<typeof S.getMemory>) {
    return this.memories.get(req.actor, req.storeId, req.id, req.query.view);
  }

  @RpcHandler(S.updateMemory)
  updateMemory(req: RpcParsedRequest<typeof S.updateMemory>) {
    return this.memories.update(req.actor, req.storeId, req.id, req.body, req.query.view);
  }

  @RpcHandler(S.listMemories)
  listMemories(req: RpcParsedRequest<typeof S.listMemories>) {
    return this.memories.list(req.actor, req.storeId, req.query);
  }

  @RpcHandler(S.deleteMemory)
  deleteMemory(req: RpcParsedRequest<typeof S.deleteMemory>) {
    return this.memories.delete(req.actor, req.storeId, req.id);
  }

  @RpcHandler(S.getMemoryVersion)
  getMemoryVersion(req: RpcParsedRequest<typeof S.getMemoryVersion>) {
    return this.versions.get(req.actor, req.storeId, req.id, req.query.view);
  }

  @RpcHandler(S.listMemoryVersions)
  listMemoryVersions(req: RpcParsedRequest<typeof S.listMemoryVersions>) {
    return this.versions.list(req.actor, req.storeId, req.query);
  }

  @RpcHandler(S.redactMemoryVersion)
  redactMemoryVersion(req: RpcParsedRequest<typeof S.redactMemoryVersion>) {
    return this.versions.redact(req.actor, req.storeId, req.id);
  }
}
