import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { UsersHandler } from './users.handler.js';
import { UsersService } from './users.service.js';

@Module({ imports: [AuthModule], controllers: [UsersHandler], providers: [UsersService] })
export class UsersModule {}
