import { Module } from '@nestjs/common';
import { HandsCancelListener } from './hands-cancel.listener.js';
import { HandsExecService } from './hands-exec.service.js';
import { HandsToolbox } from './hands-toolbox.js';
import { HandsHandler } from './hands.handler.js';
import { HandsPrepareListener } from './hands-prepare.listener.js';
import { RunningToolCalls } from './running-tool-calls.js';
import { SandboxCredentialsClient } from './sandbox-credentials.client.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { ToolResultCache } from './tool-result-cache.js';
import { WorkerHeartbeat } from './worker-heartbeat.js';
import { CheckpointRestoreHandler } from '../workspace/checkpoint-restore.js';
import { DurableWorkspaces } from '../workspace/durable-workspaces.js';
import { SessionFilesCleanup } from '../workspace/session-files-cleanup.js';
import { SessionFilesEndedListener } from '../workspace/session-files-ended.listener.js';
import { SessionMounts } from '../mounts/session-mounts.js';
import { SessionRepositories } from '../resources/session-repositories.js';
import { E2B_SANDBOX_FACTORY, sdkE2bSandboxFactory } from '../e2b/e2b-sandbox-factory.js';
import { E2bSessionSandboxes } from '../e2b/e2b-session-sandboxes.js';
import { SessionEndedListener } from '../e2b/session-ended.listener.js';
import { SandboxCaps } from '../sandbox/sandbox-caps.js';
import { EnvironmentBuildsClient } from '../userland/environment-builds.client.js';
import { SandboxImages } from '../userland/sandbox-images.js';

@Module({
  controllers: [HandsHandler, CheckpointRestoreHandler],
  providers: [
    HandsExecService,
    HandsToolbox,
    RunningToolCalls,
    HandsCancelListener,
    HandsPrepareListener,
    SessionSandboxes,
    SandboxImages,
    SandboxCaps,
    EnvironmentBuildsClient,
    ToolResultCache,
    DurableWorkspaces,
    SessionMounts,
    WorkerHeartbeat,
    SandboxCredentialsClient,
    SessionRepositories,
    E2bSessionSandboxes,
    SessionEndedListener,
    SessionFilesCleanup,
    SessionFilesEndedListener,
    { provide: E2B_SANDBOX_FACTORY, useValue: sdkE2bSandboxFactory },
  ],
  exports: [
    SessionSandboxes,
    E2bSessionSandboxes,
    RunningToolCalls,
    DurableWorkspaces,
    SandboxCredentialsClient,
  ],
})
export class HandsModule {}
