import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ApiKeysHandler } from './api-keys.handler.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({ imports: [AuthModule], controllers: [ApiKeysHandler], providers: [ApiKeysService] })
export class ApiKeysModule {}
