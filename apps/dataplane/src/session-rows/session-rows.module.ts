import { Module } from '@nestjs/common';
import { SessionRowsHandler } from './session-rows.handler.js';
import { SessionRowsRepository } from './session-rows.repository.js';

/** Session definitions stored on control's request. */
@Module({ controllers: [SessionRowsHandler], providers: [SessionRowsRepository] })
export class SessionRowsModule {}
