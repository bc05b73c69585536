import { Module } from '@nestjs/common';
import { HandsModule } from '../hands/hands.module.js';
import { HandsHeartbeatService } from './hands-heartbeat.service.js';

@Module({ imports: [HandsModule], providers: [HandsHeartbeatService] })
export class HandsStatusModule {}
