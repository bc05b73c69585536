import { Controller } from '@nestjs/common';
import { HandsSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { WORKER_ID } from '../hands/worker-identity.js';
import { SandboxMcpServers } from './sandbox-mcp-servers.js';

/** The stdio MCP servers of the sessions bound to this worker, on its own subject. */
const OWN = S.mcpOn(WORKER_ID);

@Controller()
export class HandsMcpHandler {
  constructor(private readonly servers: SandboxMcpServers) {}

  @RpcHandler(OWN)
  handle(req: RpcParsedRequest<typeof OWN>) {
    return this.servers.handle(req);
  }
}
