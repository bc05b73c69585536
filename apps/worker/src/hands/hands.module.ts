import { Module } from '@nestjs/common';
import { HandsCancelListener } from './hands-cancel.listener.js';
import { HandsExecService } from './hands-exec.service.js';
import { HandsToolbox } from './hands-toolbox.js';
import { HandsHandler } from './hands.handler.js';
import { RunningToolCalls } from './running-tool-calls.js';
import { SandboxCredentialsClient } from './sandbox-credentials.client.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { ToolResultCache } from './tool-result-cache.js';
import { WorkerHeartbeat } from './worker-heartbeat.js';
import { DurableWorkspaces } from '../workspace/durable-workspaces.js';
import { SessionMounts } from '../mounts/session-mounts.js';
import { SessionRepositories } from '../resources/session-repositories.js';

@Module({
  controllers: [HandsHandler],
  providers: [
    HandsExecService,
    HandsToolbox,
    RunningToolCalls,
    HandsCancelListener,
    SessionSandboxes,
    ToolResultCache,
    DurableWorkspaces,
    SessionMounts,
    WorkerHeartbeat,
    SandboxCredentialsClient,
    SessionRepositories,
  ],
  exports: [SessionSandboxes, RunningToolCalls, DurableWorkspaces, SandboxCredentialsClient],
})
export class HandsModule {}
