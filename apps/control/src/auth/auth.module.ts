import { Module } from '@nestjs/common';
import { TenancyRepository } from '../tenancy/tenancy.repository.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { AuthHandler } from './auth.handler.js';
import { AuthService } from './auth.service.js';
import { UsersRepository } from './users.repository.js';

@Module({
  controllers: [AuthHandler],
  providers: [AuthService, UsersRepository, ApiKeysRepository, TenancyRepository],
  exports: [TenancyRepository, UsersRepository, ApiKeysRepository],
})
export class AuthModule {}
