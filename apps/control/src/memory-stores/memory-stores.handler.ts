import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlStoreSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { MemoriesService } from './memories.service.js';
import { MemoryStoresService } from './memory-stores.service.js';
import { MemoryVersionsService } from './memory-versions.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class MemoryStoresHandler {
  constructor(
    private readonly stores: MemoryStoresService,
    private readonly memories: MemoriesService,
    private readonly versions: MemoryVersionsService,
  ) {}

  @RpcHandler(S.createMemoryStore)
  createMemoryStore(@RpcBody(S.createMemoryStore) req: RpcParsedRequest<typeof S.createMemoryStore>) {
    return this.stores.create(req.actor, req.body);
  }

  @RpcHandler(S.getMemoryStore)
  getMemoryStore(@RpcBody(S.getMemoryStore) req: RpcParsedRequest<typeof S.getMemoryStore>) {
    return this.stores.get(req.actor, req.id);
  }

  @RpcHandler(S.updateMemoryStore)
  updateMemoryStore(@RpcBody(S.updateMemoryStore) req: RpcParsedRequest<typeof S.updateMemoryStore>) {
    return this.stores.update(req.actor, req.id, req.body);
  }

  @RpcHandler(S.listMemoryStores)
  listMemoryStores(@RpcBody(S.listMemoryStores) req: RpcParsedRequest<typeof S.listMemoryStores>) {
    return this.stores.list(req.actor, req.query);
  }

  @RpcHandler(S.archiveMemoryStore)
  archiveMemoryStore(@RpcBody(S.archiveMemoryStore) req: RpcParsedRequest<typeof S.archiveMemoryStore>) {
    return this.stores.archive(req.actor, req.id);
  }

  @RpcHandler(S.deleteMemoryStore)
  deleteMemoryStore(@RpcBody(S.deleteMemoryStore) req: RpcParsedRequest<typeof S.deleteMemoryStore>) {
    return this.stores.delete(req.actor, req.id);
  }

  @RpcHandler(S.createMemory)
  createMemory(@RpcBody(S.createMemory) req: RpcParsedRequest<typeof S.createMemory>) {
    return this.memories.create(req.actor, req.storeId, req.body, req.query.view);
  }

  @RpcHandler(S.getMemory)
  getMemory(@RpcBody(S.getMemory) req: RpcParsedRequest<typeof S.getMemory>) {
    return this.memories.get(req.actor, req.storeId, req.id, req.query.view);
  }

  @RpcHandler(S.updateMemory)
  updateMemory(@RpcBody(S.updateMemory) req: RpcParsedRequest<typeof S.updateMemory>) {
    return this.memories.update(req.actor, req.storeId, req.id, req.body, req.query.view);
  }

  @RpcHandler(S.listMemories)
  listMemories(@RpcBody(S.listMemories) req: RpcParsedRequest<typeof S.listMemories>) {
    return this.memories.list(req.actor, req.storeId, req.query);
  }

  @RpcHandler(S.deleteMemory)
  deleteMemory(@RpcBody(S.deleteMemory) req: RpcParsedRequest<typeof S.deleteMemory>) {
    return this.memories.delete(req.actor, req.storeId, req.id);
  }

  @RpcHandler(S.getMemoryVersion)
  getMemoryVersion(@RpcBody(S.getMemoryVersion) req: RpcParsedRequest<typeof S.getMemoryVersion>) {
    return this.versions.get(req.actor, req.storeId, req.id, req.query.view);
  }

  @RpcHandler(S.listMemoryVersions)
  listMemoryVersions(@RpcBody(S.listMemoryVersions) req: RpcParsedRequest<typeof S.listMemoryVersions>) {
    return this.versions.list(req.actor, req.storeId, req.query);
  }

  @RpcHandler(S.redactMemoryVersion)
  redactMemoryVersion(@RpcBody(S.redactMemoryVersion) req: RpcParsedRequest<typeof S.redactMemoryVersion>) {
    return this.versions.redact(req.actor, req.storeId, req.id);
  }
}
