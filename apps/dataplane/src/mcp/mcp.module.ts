import { Module } from '@nestjs/common';
import { EndedSessionsRepository } from './ended-sessions.repository.js';
import { McpCredentialsClient } from './mcp-credentials.client.js';
import { SessionMcpPool } from './session-mcp-pool.js';

@Module({ providers: [McpCredentialsClient, EndedSessionsRepository, SessionMcpPool], exports: [SessionMcpPool] })
export class McpModule {}
