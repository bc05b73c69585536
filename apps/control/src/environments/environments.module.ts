import { Module } from '@nestjs/common';
import { EnvironmentBuildsHandler } from './environment-builds.handler.js';
import { EnvironmentBuildsRepository } from './environment-builds.repository.js';
import { EnvironmentBuildsService } from './environment-builds.service.js';
import { EnvironmentKeysRepository } from './environment-keys.repository.js';
import { EnvironmentKeysService } from './environment-keys.service.js';
import { EnvironmentsHandler } from './environments.handler.js';
import { EnvironmentsRepository } from './environments.repository.js';
import { EnvironmentsService } from './environments.service.js';

@Module({
  controllers: [EnvironmentsHandler, EnvironmentBuildsHandler],
  providers: [
    EnvironmentsService,
    EnvironmentsRepository,
    EnvironmentKeysService,
    EnvironmentKeysRepository,
    EnvironmentBuildsService,
    EnvironmentBuildsRepository,
  ],
  exports: [EnvironmentsService],
})
export class EnvironmentsModule {}
