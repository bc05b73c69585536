import { Controller } from '@nestjs/common';
import { AgentWorkspaceRowSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AgentWorkspaceRows } from './agent-workspace-rows.js';

/** Control's writes of agent workspace files: the dataplane owns the rows, control owns the rules. */
@Controller()
export class AgentWorkspaceRowsHandler {
  constructor(private readonly rows: AgentWorkspaceRows) {}

  @RpcHandler(S.apply)
  apply(req: RpcParsedRequest<typeof S.apply>) {
    return this.rows.apply(req.actor.tenantId, req.agentId, req.changes);
  }
}
