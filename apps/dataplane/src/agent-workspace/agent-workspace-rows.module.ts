import { Module } from '@nestjs/common';
import { AgentWorkspaceRows } from './agent-workspace-rows.js';
import { AgentWorkspaceRowsHandler } from './agent-workspace-rows.handler.js';

/** Agent workspace files written on control's request. */
@Module({ controllers: [AgentWorkspaceRowsHandler], providers: [AgentWorkspaceRows] })
export class AgentWorkspaceRowsModule {}
