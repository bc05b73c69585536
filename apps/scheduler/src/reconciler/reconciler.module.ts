import { Module } from '@nestjs/common';
import { SessionReconciler } from './session-reconciler.service.js';
import { StaleWorkReconciler } from './stale-work.reconciler.js';
import { StaleWorkRepository } from './stale-work.repository.js';
import { StalledSessionsRepository } from './stalled-sessions.repository.js';

@Module({ providers: [SessionReconciler, StalledSessionsRepository, StaleWorkReconciler, StaleWorkRepository] })
export class ReconcilerModule {}
