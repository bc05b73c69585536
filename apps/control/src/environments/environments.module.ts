import { Module } from '@nestjs/common';
import { EnvironmentsHandler } from './environments.handler.js';
import { EnvironmentsRepository } from './environments.repository.js';
import { EnvironmentsService } from './environments.service.js';

@Module({
  controllers: [EnvironmentsHandler],
  providers: [EnvironmentsService, EnvironmentsRepository],
  exports: [EnvironmentsService],
})
export class EnvironmentsModule {}
