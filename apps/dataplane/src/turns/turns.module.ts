import { Module } from '@nestjs/common';
import { HarnessFactory } from './harness-factory.js';
import { SessionDrainProcessor } from './session-drain.processor.js';
import { SharedWorkspaces } from './shared-workspaces.js';
import { TurnRunner } from './turn-runner.service.js';

@Module({ providers: [HarnessFactory, TurnRunner, SessionDrainProcessor, SharedWorkspaces] })
export class TurnsModule {}
