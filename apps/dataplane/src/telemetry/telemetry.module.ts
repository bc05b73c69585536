import { Module } from '@nestjs/common';
import { SessionGauges } from './session-gauges.js';
import { SessionStatsRepository } from './session-stats.repository.js';

@Module({ providers: [SessionStatsRepository, SessionGauges] })
export class TelemetryModule {}
