import { Controller, Get, Header, Param } from '@nestjs/common';
import { SkillFileSubjects, type Actor } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { skillArchive } from './skill-archive.js';
import { SessionSkillRoute } from './worker-route.decorator.js';

/**
 * `GET /v1/skills/{id}/versions/{version}/content`: the version as a tar archive. The SDK worker's
 * `setupSkills` downloads each skill of its session's agent here with the item's sessions token.
 */
@Controller('v1/skills/:id/versions/:version/content')
export class SkillContentController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @SessionSkillRoute()
  @Header('content-type', 'application/x-tar')
  async download(
    @CurrentActor() actor: Actor,
    @Param('id') skillId: string,
    @Param('version') version: string,
  ): Promise<Buffer> {
    return skillArchive(
      await this.rpc.request(SkillFileSubjects.getVersionFiles, { actor, skillId, version }),
    );
  }
}
