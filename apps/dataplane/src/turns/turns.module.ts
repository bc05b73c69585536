import { Module } from '@nestjs/common';
import { ConfirmationExpiry } from './confirmation-expiry.js';
import { HarnessFactory } from './harness-factory.js';
import { SessionDrainProcessor } from './session-drain.processor.js';
import { SessionInterrupts } from './session-interrupts.js';
import { SessionTermination } from './session-termination.js';
import { SharedWorkspaces } from './shared-workspaces.js';
import { SessionMountPlanner } from '../mounts/session-mount-plan.js';
import { LeaseExpiryWatch } from './lease-expiry-watch.js';
import { TurnAbandonment } from './turn-abandonment.js';
import { TurnRunner } from './turn-runner.service.js';
import { WorkModule } from '../work/work.module.js';
import { McpModule } from '../mcp/mcp.module.js';

@Module({
  imports: [WorkModule, McpModule],
  providers: [
    HarnessFactory,
    ConfirmationExpiry,
    SessionTermination,
    TurnRunner,
    TurnAbandonment,
    LeaseExpiryWatch,
    SessionDrainProcessor,
    SessionInterrupts,
    SharedWorkspaces,
    SessionMountPlanner,
  ],
})
export class TurnsModule {}
