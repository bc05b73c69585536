import { Module } from '@nestjs/common';
import { AgentsHandler } from './agents.handler.js';
import { AgentsRepository } from './agents.repository.js';
import { AgentsService } from './agents.service.js';

@Module({ controllers: [AgentsHandler], providers: [AgentsService, AgentsRepository], exports: [AgentsService] })
export class AgentsModule {}
