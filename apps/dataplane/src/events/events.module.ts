import { Module } from '@nestjs/common';
import { ElicitationAnswers } from './elicitation-answers.js';
import { EventsHandler } from './events.handler.js';
import { EventsService } from './events.service.js';
import { ThreadRouting } from './thread-routing.js';

/** `dataplane.events.*`: a client's append to the inbox, and reads of the log. */
@Module({ controllers: [EventsHandler], providers: [EventsService, ThreadRouting, ElicitationAnswers] })
export class EventsModule {}
