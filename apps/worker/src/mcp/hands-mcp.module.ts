import { Module } from '@nestjs/common';
import { HandsModule } from '../hands/hands.module.js';
import { HandsMcpHandler } from './hands-mcp.handler.js';
import { SandboxMcpServers } from './sandbox-mcp-servers.js';

@Module({ imports: [HandsModule], controllers: [HandsMcpHandler], providers: [SandboxMcpServers] })
export class HandsMcpModule {}
