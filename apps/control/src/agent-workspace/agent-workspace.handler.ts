import { Controller } from '@nestjs/common';
import { ControlWorkspaceSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AgentWorkspaceFilesService } from './agent-workspace-files.service.js';
import { AgentWorkspaceSkillsService } from './agent-workspace-skills.service.js';
import { AgentWorkspaceSubagentsService } from './agent-workspace-subagents.service.js';

@Controller()
export class AgentWorkspaceHandler {
  constructor(
    private readonly files: AgentWorkspaceFilesService,
    private readonly skills: AgentWorkspaceSkillsService,
    private readonly subagents: AgentWorkspaceSubagentsService,
  ) {}

  @RpcHandler(S.summary)
  summary(req: RpcParsedRequest<typeof S.summary>) {
    return this.files.summary(req.actor, req.agentId);
  }

  @RpcHandler(S.listFiles)
  listFiles(req: RpcParsedRequest<typeof S.listFiles>) {
    return this.files.list(req.actor, req.agentId);
  }

  @RpcHandler(S.readFile)
  readFile(req: RpcParsedRequest<typeof S.readFile>) {
    return this.files.read(req.actor, req.agentId, req.query.path);
  }

  @RpcHandler(S.writeFile)
  writeFile(req: RpcParsedRequest<typeof S.writeFile>) {
    return this.files.write(req.actor, req.agentId, req.body.path, req.body.content);
  }

  @RpcHandler(S.deleteFile)
  deleteFile(req: RpcParsedRequest<typeof S.deleteFile>) {
    return this.files.delete(req.actor, req.agentId, req.query.path);
  }

  @RpcHandler(S.moveFile)
  moveFile(req: RpcParsedRequest<typeof S.moveFile>) {
    return this.files.move(req.actor, req.agentId, req.body.from, req.body.to);
  }

  @RpcHandler(S.listSkills)
  listSkills(req: RpcParsedRequest<typeof S.listSkills>) {
    return this.skills.list(req.actor, req.agentId);
  }

  @RpcHandler(S.getSkill)
  getSkill(req: RpcParsedRequest<typeof S.getSkill>) {
    return this.skills.get(req.actor, req.agentId, req.name);
  }

  @RpcHandler(S.putSkill)
  putSkill(req: RpcParsedRequest<typeof S.putSkill>) {
    return this.skills.put(req.actor, req.agentId, req.name, req.body);
  }

  @RpcHandler(S.deleteSkill)
  deleteSkill(req: RpcParsedRequest<typeof S.deleteSkill>) {
    return this.skills.delete(req.actor, req.agentId, req.name);
  }

  @RpcHandler(S.listSubagents)
  listSubagents(req: RpcParsedRequest<typeof S.listSubagents>) {
    return this.subagents.list(req.actor, req.agentId);
  }

  @RpcHandler(S.putSubagent)
  putSubagent(req: RpcParsedRequest<typeof S.putSubagent>) {
    return this.subagents.put(req.actor, req.agentId, req.name, req.body);
  }

  @RpcHandler(S.deleteSubagent)
  deleteSubagent(req: RpcParsedRequest<typeof S.deleteSubagent>) {
    return this.subagents.delete(req.actor, req.agentId, req.name);
  }
}
