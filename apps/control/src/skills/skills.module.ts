import { Module } from '@nestjs/common';
import { SkillFilesHandler } from './skill-files.handler.js';
import { SkillsHandler } from './skills.handler.js';
import { SkillsRepository } from './skills.repository.js';
import { SkillsService } from './skills.service.js';

@Module({
  controllers: [SkillsHandler, SkillFilesHandler],
  providers: [SkillsRepository, SkillsService],
  exports: [SkillsService],
})
export class SkillsModule {}
