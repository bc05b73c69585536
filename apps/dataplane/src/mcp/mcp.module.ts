import { Module } from '@nestjs/common';
import { EndedSessionsRepository } from './ended-sessions.repository.js';
import { McpCredentialsClient } from './mcp-credentials.client.js';
import { SessionMcpPool } from './session-mcp-pool.js';
import { SessionToolsJsonMcp } from './session-tools-json-mcp.js';

@Module({
  providers: [McpCredentialsClient, EndedSessionsRepository, SessionMcpPool, SessionToolsJsonMcp],
  exports: [SessionMcpPool, SessionToolsJsonMcp],
})
export class McpModule {}
