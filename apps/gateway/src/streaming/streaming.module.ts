import { Module } from '@nestjs/common';
import { SessionEventLog } from './session-event-log.js';
import { SessionStreamService } from './session-stream.service.js';

/** One stream service per process, shared by `/v1` and `/api`, so a session has one subscription. */
@Module({ providers: [SessionStreamService, SessionEventLog], exports: [SessionStreamService] })
export class StreamingModule {}
