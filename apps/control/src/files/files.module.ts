import { Module } from '@nestjs/common';
import { FilesHandler } from './files.handler.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';

@Module({ controllers: [FilesHandler], providers: [FilesRepository, FilesService], exports: [FilesService] })
export class FilesModule {}
