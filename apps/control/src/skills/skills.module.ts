import { Module } from '@nestjs/common';
import { SkillsHandler } from './skills.handler.js';
import { SkillsRepository } from './skills.repository.js';
import { SkillsService } from './skills.service.js';

@Module({ controllers: [SkillsHandler], providers: [SkillsRepository, SkillsService], exports: [SkillsService] })
export class SkillsModule {}
