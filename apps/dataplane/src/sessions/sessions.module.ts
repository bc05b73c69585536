import { Global, Module } from '@nestjs/common';
import { SessionStateRepository } from './session-state.repository.js';

/** A session's run-time row: its lease with the fencing token, its status and what a turn reads with it. */
@Global()
@Module({ providers: [SessionStateRepository], exports: [SessionStateRepository] })
export class SessionsModule {}
