import { Module } from '@nestjs/common';
import { SkillContentController } from './skill-content.controller.js';
import { WorkController } from './work.controller.js';
import { WorkQueueService } from './work-queue.service.js';

/** `/v1/environments/{id}/work`, the work queue of self-hosted environments, and the skill download its workers use. */
@Module({ controllers: [WorkController, SkillContentController], providers: [WorkQueueService] })
export class WorkersModule {}
