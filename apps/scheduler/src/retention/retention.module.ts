import { Module } from '@nestjs/common';
import { EventRetentionService } from './event-retention.service.js';

@Module({ providers: [EventRetentionService] })
export class RetentionModule {}
