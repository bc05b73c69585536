import { Module } from '@nestjs/common';
import { MembershipsRepository } from '../tenancy/memberships.repository.js';
import { NamespacePlacement } from '../tenancy/namespace-placement.js';
import { TenancyRepository } from '../tenancy/tenancy.repository.js';
import { AccessChangesPublisher } from './access-changes.publisher.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { AuthHandler } from './auth.handler.js';
import { AuthService } from './auth.service.js';
import { UsersRepository } from './users.repository.js';

@Module({
  controllers: [AuthHandler],
  providers: [
    AuthService,
    AccessChangesPublisher,
    UsersRepository,
    ApiKeysRepository,
    TenancyRepository,
    MembershipsRepository,
    NamespacePlacement,
  ],
  exports: [
    AccessChangesPublisher,
    TenancyRepository,
    UsersRepository,
    ApiKeysRepository,
    MembershipsRepository,
    NamespacePlacement,
  ],
})
export class AuthModule {}
