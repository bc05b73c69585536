import { Module } from '@nestjs/common';
import { MultiagentHandler } from './multiagent.handler.js';
import { MultiagentRunService } from './multiagent-run.service.js';

@Module({ controllers: [MultiagentHandler], providers: [MultiagentRunService] })
export class MultiagentModule {}
