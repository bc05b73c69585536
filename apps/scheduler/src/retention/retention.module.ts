import { Module } from '@nestjs/common';
import { EventRetentionService } from './event-retention.service.js';
import { RetentionSweepService } from './retention-sweep.service.js';

@Module({ providers: [EventRetentionService, RetentionSweepService] })
export class RetentionModule {}
