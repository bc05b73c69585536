import { Module } from '@nestjs/common';
import { MemoryHousekeepingService } from './memory-housekeeping.service.js';

@Module({ providers: [MemoryHousekeepingService] })
export class MemoryModule {}
