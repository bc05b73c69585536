import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { SkillsService } from './skills.service.js';

@Controller()
export class SkillsHandler {
  constructor(private readonly skills: SkillsService) {}

  @RpcHandler(S.createSkill)
  createSkill(req: RpcParsedRequest<typeof S.createSkill>) {
    return this.skills.create(req.actor, req.body);
  }

  @RpcHandler(S.getSkill)
  getSkill(req: RpcParsedRequest<typeof S.getSkill>) {
    return this.skills.get(req.actor, req.id);
  }

  @RpcHandler(S.listSkills)
  listSkills(req: RpcParsedRequest<typeof S.listSkills>) {
    return this.skills.list(req.actor, req.query);
  }

  @RpcHandler(S.deleteSkill)
  deleteSkill(req: RpcParsedRequest<typeof S.deleteSkill>) {
    return this.skills.delete(req.actor, req.id);
  }

  @RpcHandler(S.createSkillVersion)
  createSkillVersion(req: RpcParsedRequest<typeof S.createSkillVersion>) {
    return this.skills.createVersion(req.actor, req.skillId, req.body);
  }

  @RpcHandler(S.getSkillVersion)
  getSkillVersion(req: RpcParsedRequest<typeof S.getSkillVersion>) {
    return this.skills.getVersion(req.actor, req.skillId, req.version);
  }

  @RpcHandler(S.listSkillVersions)
  listSkillVersions(req: RpcParsedRequest<typeof S.listSkillVersions>) {
    return this.skills.listVersions(req.actor, req.skillId, req.query);
  }
}
