import { Module } from '@nestjs/common';
import { ConfirmationExpiryReconciler } from './confirmation-expiry.reconciler.js';
import { ExpiredConfirmationsRepository } from './expired-confirmations.repository.js';
import { NoRunnerReconciler } from './no-runner.reconciler.js';
import { SessionReconciler } from './session-reconciler.service.js';
import { StaleWorkReconciler } from './stale-work.reconciler.js';
import { StalledSessionsRepository } from './stalled-sessions.repository.js';
import { UnrunToolCallsRepository } from './unrun-tool-calls.repository.js';

@Module({
  providers: [
    ConfirmationExpiryReconciler,
    ExpiredConfirmationsRepository,
    SessionReconciler,
    StalledSessionsRepository,
    StaleWorkReconciler,
    NoRunnerReconciler,
    UnrunToolCallsRepository,
  ],
})
export class ReconcilerModule {}
