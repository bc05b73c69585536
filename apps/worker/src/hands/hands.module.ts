import { Module } from '@nestjs/common';
import { HandsExecService } from './hands-exec.service.js';
import { HandsHandler } from './hands.handler.js';
import { SessionWorkspaces } from './session-workspaces.js';
import { ToolResultCache } from './tool-result-cache.js';

@Module({ controllers: [HandsHandler], providers: [HandsExecService, SessionWorkspaces, ToolResultCache] })
export class HandsModule {}
