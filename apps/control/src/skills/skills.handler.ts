import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { SkillsService } from './skills.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('skills', {
  create: S.createSkill,
  get: S.getSkill,
  list: S.listSkills,
  delete: S.deleteSkill,
})
@CatalogHandlers(
  'skills',
  {
    create: S.createSkillVersion,
    get: S.getSkillVersion,
    list: S.listSkillVersions,
  },
  {
    parent: 'skillId',
    item: 'version',
    names: { create: 'createVersion', get: 'getVersion', list: 'listVersions' },
  },
)
export class SkillsHandler {
  constructor(readonly skills: SkillsService) {}
}
