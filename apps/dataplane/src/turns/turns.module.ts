import { Module } from '@nestjs/common';
import { TurnBudgets } from '../budgets/turn-budgets.js';
import { CheckpointsModule } from '../checkpoints/checkpoints.module.js';
import { McpModule } from '../mcp/mcp.module.js';
import { SessionMountPlanner } from '../mounts/session-mount-plan.js';
import { WorkModule } from '../work/work.module.js';
import { ConfirmationExpiry } from './confirmation-expiry.js';
import { NoRunnerAnswers } from './no-runner-answers.js';
import { HarnessFactory } from '../agent-harness/harness-factory.js';
import { SessionDrainProcessor } from './session-drain.processor.js';
import { SessionTermination } from './session-termination.js';
import { SharedWorkspaces } from '../agent-harness/shared-workspaces.js';
import { TurnAbandonment } from './turn-abandonment.js';
import { TurnAdmission } from './turn-admission.js';
import { TurnClosing } from './turn-closing.js';
import { TurnContext } from './turn-context.js';
import { TurnHarnesses } from './turn-harnesses.js';
import { TurnLoop } from './turn-loop.js';
import { TurnPipeline } from './turn-pipeline.js';
import { TurnStart } from './turn-start.js';

@Module({
  imports: [WorkModule, McpModule, CheckpointsModule],
  providers: [
    TurnPipeline,
    TurnAdmission,
    TurnStart,
    TurnContext,
    TurnHarnesses,
    TurnLoop,
    TurnClosing,
    TurnBudgets,
    HarnessFactory,
    ConfirmationExpiry,
    NoRunnerAnswers,
    SessionTermination,
    TurnAbandonment,
    SessionDrainProcessor,
    SharedWorkspaces,
    SessionMountPlanner,
  ],
  exports: [HarnessFactory, SharedWorkspaces],
})
export class TurnsModule {}
