import { Controller } from '@nestjs/common';
import { SkillFileSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { SkillsService } from './skills.service.js';

/** Skill contents for the gateway's worker routes (the public skill routes return metadata only). */
@Controller()
export class SkillFilesHandler {
  constructor(private readonly skills: SkillsService) {}

  @RpcHandler(S.getVersionFiles)
  getVersionFiles(req: RpcParsedRequest<typeof S.getVersionFiles>) {
    return this.skills.getVersionFiles(req.actor, req.skillId, req.version);
  }
}
