import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { SkillsService } from './skills.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('skills', {
  create: S.createSkill,
  get: S.getSkill,
  list: S.listSkills,
  delete: S.deleteSkill,
})
export class SkillsHandler {
  constructor(readonly skills: SkillsService) {}

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
