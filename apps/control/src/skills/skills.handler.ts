import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlStoreSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { SkillsService } from './skills.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class SkillsHandler {
  constructor(private readonly skills: SkillsService) {}

  @RpcHandler(S.createSkill)
  createSkill(@RpcBody(S.createSkill) req: RpcParsedRequest<typeof S.createSkill>) {
    return this.skills.create(req.actor, req.body);
  }

  @RpcHandler(S.getSkill)
  getSkill(@RpcBody(S.getSkill) req: RpcParsedRequest<typeof S.getSkill>) {
    return this.skills.get(req.actor, req.id);
  }

  @RpcHandler(S.listSkills)
  listSkills(@RpcBody(S.listSkills) req: RpcParsedRequest<typeof S.listSkills>) {
    return this.skills.list(req.actor, req.query);
  }

  @RpcHandler(S.deleteSkill)
  deleteSkill(@RpcBody(S.deleteSkill) req: RpcParsedRequest<typeof S.deleteSkill>) {
    return this.skills.delete(req.actor, req.id);
  }

  @RpcHandler(S.createSkillVersion)
  createSkillVersion(@RpcBody(S.createSkillVersion) req: RpcParsedRequest<typeof S.createSkillVersion>) {
    return this.skills.createVersion(req.actor, req.skillId, req.body);
  }

  @RpcHandler(S.getSkillVersion)
  getSkillVersion(@RpcBody(S.getSkillVersion) req: RpcParsedRequest<typeof S.getSkillVersion>) {
    return this.skills.getVersion(req.actor, req.skillId, req.version);
  }

  @RpcHandler(S.listSkillVersions)
  listSkillVersions(@RpcBody(S.listSkillVersions) req: RpcParsedRequest<typeof S.listSkillVersions>) {
    return this.skills.listVersions(req.actor, req.skillId, req.query);
  }
}
