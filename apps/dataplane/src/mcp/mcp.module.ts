import { Module } from '@nestjs/common';
import { McpCredentialsClient } from './mcp-credentials.client.js';
import { SessionMcpPool } from './session-mcp-pool.js';

@Module({ providers: [McpCredentialsClient, SessionMcpPool], exports: [SessionMcpPool] })
export class McpModule {}
