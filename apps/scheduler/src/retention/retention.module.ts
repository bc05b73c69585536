import { Module } from '@nestjs/common';
import { EventRetentionRepository } from './event-retention.repository.js';
import { EventRetentionService } from './event-retention.service.js';

@Module({ providers: [EventRetentionRepository, EventRetentionService] })
export class RetentionModule {}
