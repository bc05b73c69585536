import { Module } from '@nestjs/common';
import { HandsExecService } from './hands-exec.service.js';
import { HandsHandler } from './hands.handler.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { ToolResultCache } from './tool-result-cache.js';

@Module({ controllers: [HandsHandler], providers: [HandsExecService, SessionSandboxes, ToolResultCache] })
export class HandsModule {}
