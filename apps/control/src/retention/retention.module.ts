import { Module } from '@nestjs/common';
import { ExpiredRowsRepository } from './expired-rows.repository.js';
import { RetentionHandler } from './retention.handler.js';

@Module({ controllers: [RetentionHandler], providers: [ExpiredRowsRepository] })
export class RetentionModule {}
