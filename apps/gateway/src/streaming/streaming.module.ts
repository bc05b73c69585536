import { Module } from '@nestjs/common';
import { ConsentRedaction } from './consent-redaction.js';
import { SessionEventLog } from './session-event-log.js';
import { SessionStreamService } from './session-stream.service.js';

/** One stream service per process, shared by `/v1` and `/api`, so a session has one subscription. */
@Module({
  providers: [SessionStreamService, SessionEventLog, ConsentRedaction],
  exports: [SessionStreamService, ConsentRedaction],
})
export class StreamingModule {}
