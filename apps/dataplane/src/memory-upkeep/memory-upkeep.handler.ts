import { Controller } from '@nestjs/common';
import { UpkeepSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AgentMemoryService } from './agent-memory.service.js';
import { DreamModelService } from './dream-model.service.js';

/** Agent memory upkeep the scheduler times: the dataplane owns the workspaces and runs the models. */
@Controller()
export class MemoryUpkeepHandler {
  constructor(
    private readonly memory: AgentMemoryService,
    private readonly dreams: DreamModelService,
  ) {}

  @RpcHandler(S.listAgentsWithMemory)
  async listAgentsWithMemory(req: RpcParsedRequest<typeof S.listAgentsWithMemory>) {
    return { agents: await this.memory.agentsWithLedgers(req.afterId, req.limit) };
  }

  @RpcHandler(S.maintainAgentMemory)
  maintainAgentMemory(req: RpcParsedRequest<typeof S.maintainAgentMemory>) {
    return this.memory.maintain(req);
  }

  @RpcHandler(S.dreamMemories)
  dreamMemories(req: RpcParsedRequest<typeof S.dreamMemories>) {
    return this.dreams.dream(req);
  }
}
