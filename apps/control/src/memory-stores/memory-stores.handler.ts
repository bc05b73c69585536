import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { MemoriesService } from './memories.service.js';
import { MemoryStoresService } from './memory-stores.service.js';
import { MemoryVersionsService } from './memory-versions.service.js';

@Controller()
export class MemoryStoresHandler {
  constructor(
    private readonly stores: MemoryStoresService,
    private readonly memories: MemoriesService,
    private readonly versions: MemoryVersionsService,
  ) {}

  @RpcHandler(S.createMemoryStore)
  createMemoryStore(req: RpcParsedRequest<typeof S.createMemoryStore>) {
    return this.stores.create(req.actor, req.body);
  }

  @RpcHandler(S.getMemoryStore)
  getMemoryStore(req: RpcParsedRequest<typeof S.getMemoryStore>) {
    return this.stores.get(req.actor, req.id);
  }

  @RpcHandler(S.updateMemoryStore)
  updateMemoryStore(req: RpcParsedRequest<typeof S.updateMemoryStore>) {
    return this.stores.update(req.actor, req.id, req.body);
  }

  @RpcHandler(S.listMemoryStores)
  listMemoryStores(req: RpcParsedRequest<typeof S.listMemoryStores>) {
    return this.stores.list(req.actor, req.query);
  }

  @RpcHandler(S.archiveMemoryStore)
  archiveMemoryStore(req: RpcParsedRequest<typeof S.archiveMemoryStore>) {
    return this.stores.archive(req.actor, req.id);
  }

  @RpcHandler(S.deleteMemoryStore)
  deleteMemoryStore(req: RpcParsedRequest<typeof S.deleteMemoryStore>) {
    return this.stores.delete(req.actor, req.id);
  }

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
