import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module.js';
import { AgentWorkspaceAccess } from './agent-workspace.access.js';
import { AgentWorkspaceFilesService } from './agent-workspace-files.service.js';
import { AgentWorkspaceHandler } from './agent-workspace.handler.js';
import { AgentWorkspaceSkillsService } from './agent-workspace-skills.service.js';
import { AgentWorkspaceStore } from './agent-workspace.store.js';
import { AgentWorkspaceSubagentsService } from './agent-workspace-subagents.service.js';

/** An agent's definition files (AGENTS.md, knowledge, skills, sub-agents, tools.json) in its shared workspace. */
@Module({
  imports: [TenancyModule],
  controllers: [AgentWorkspaceHandler],
  providers: [
    AgentWorkspaceStore,
    AgentWorkspaceAccess,
    AgentWorkspaceFilesService,
    AgentWorkspaceSkillsService,
    AgentWorkspaceSubagentsService,
  ],
})
export class AgentWorkspaceModule {}
