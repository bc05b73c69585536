import { Module } from '@nestjs/common';
import { EnvironmentKeysRepository } from './environment-keys.repository.js';
import { EnvironmentKeysService } from './environment-keys.service.js';
import { EnvironmentsHandler } from './environments.handler.js';
import { EnvironmentsRepository } from './environments.repository.js';
import { EnvironmentsService } from './environments.service.js';

@Module({
  controllers: [EnvironmentsHandler],
  providers: [EnvironmentsService, EnvironmentsRepository, EnvironmentKeysService, EnvironmentKeysRepository],
  exports: [EnvironmentsService],
})
export class EnvironmentsModule {}
