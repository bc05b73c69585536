import { Module } from '@nestjs/common';
import { SessionReconciler } from './session-reconciler.service.js';
import { StalledSessionsRepository } from './stalled-sessions.repository.js';

@Module({ providers: [SessionReconciler, StalledSessionsRepository] })
export class ReconcilerModule {}
