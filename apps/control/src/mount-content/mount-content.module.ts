import { Module } from '@nestjs/common';
import { MountContentHandler } from './mount-content.handler.js';
import { MountContentRepository } from './mount-content.repository.js';

@Module({ controllers: [MountContentHandler], providers: [MountContentRepository] })
export class MountContentModule {}
