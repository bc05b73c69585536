import { Controller, Delete, Get, HttpCode, Param, Post, Put, UseFilters } from '@nestjs/common';
import {
  ApiWorkspaceDeletedSchema,
  ApiWorkspaceEntrySchema,
  ApiWorkspaceFileQuerySchema,
  ApiWorkspaceFileSchema,
  ApiWorkspaceFileWriteSchema,
  ApiWorkspaceMoveSchema,
  ApiWorkspaceSkillPutSchema,
  ApiWorkspaceSkillSchema,
  ApiWorkspaceSkillSummarySchema,
  ApiWorkspaceSubagentPutSchema,
  ApiWorkspaceSubagentSchema,
  ApiWorkspaceSummarySchema,
  ControlWorkspaceSubjects as S,
  type Actor,
  type ApiWorkspaceFileQuery,
  type ApiWorkspaceFileWrite,
  type ApiWorkspaceMove,
  type ApiWorkspaceSkillPut,
  type ApiWorkspaceSubagentPut,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';

/**
 * An agent's workspace files (AGENTS.md, knowledge/, skills/, subagents/, tools.json): what every turn
 * of the agent reads. Reads need access to the agent, writes the right to edit it; paths cross the
 * workspace path guard in control.
 */
@Controller('api/agents/:id')
@UseFilters(ApiErrorFilter)
export class ApiAgentWorkspaceController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('workspace')
  @DocReply(ApiWorkspaceSummarySchema)
  summary(@CurrentActor() actor: Actor, @Param('id') agentId: string) {
    return this.rpc.request(S.summary, { actor, agentId });
  }

  @Get('workspace/files')
  @DocReply(ApiWorkspaceEntrySchema, { list: true })
  async files(@CurrentActor() actor: Actor, @Param('id') agentId: string) {
    return (await this.rpc.request(S.listFiles, { actor, agentId })).data;
  }

  @Get('workspace/file')
  @DocReply(ApiWorkspaceFileSchema)
  readFile(
    @CurrentActor() actor: Actor,
    @Param('id') agentId: string,
    @ZodQuery(ApiWorkspaceFileQuerySchema) query: ApiWorkspaceFileQuery,
  ) {
    return this.rpc.request(S.readFile, { actor, agentId, query });
  }

  @Put('workspace/file')
  @DocReply(ApiWorkspaceEntrySchema)
  writeFile(
    @CurrentActor() actor: Actor,
    @Param('id') agentId: string,
    @ZodBody(ApiWorkspaceFileWriteSchema) body: ApiWorkspaceFileWrite,
  ) {
    return this.rpc.request(S.writeFile, { actor, agentId, body });
  }

  @Delete('workspace/file')
  @DocReply(ApiWorkspaceDeletedSchema)
  deleteFile(
    @CurrentActor() actor: Actor,
    @Param('id') agentId: string,
    @ZodQuery(ApiWorkspaceFileQuerySchema) query: ApiWorkspaceFileQuery,
  ) {
    return this.rpc.request(S.deleteFile, { actor, agentId, query });
  }

  @Post('workspace/file/move')
  @HttpCode(200)
  @DocReply(ApiWorkspaceEntrySchema)
  moveFile(
    @CurrentActor() actor: Actor,
    @Param('id') agentId: string,
    @ZodBody(ApiWorkspaceMoveSchema) body: ApiWorkspaceMove,
  ) {
    return this.rpc.request(S.moveFile, { actor, agentId, body });
  }

  @Get('skills/workspace')
  @DocReply(ApiWorkspaceSkillSummarySchema, { list: true })
  async skills(@CurrentActor() actor: Actor, @Param('id') agentId: string) {
    return (await this.rpc.request(S.listSkills, { actor, agentId })).data;
  }

  @Get('skills/workspace/:name')
  @DocReply(ApiWorkspaceSkillSchema)
  skill(@CurrentActor() actor: Actor, @Param('id') agentId: string, @Param('name') name: string) {
    return this.rpc.request(S.getSkill, { actor, agentId, name });
  }

  @Put('skills/workspace/:name')
  @DocReply(ApiWorkspaceSkillSchema)
  putSkill(
    @CurrentActor() actor: Actor,
    @Param('id') agentId: string,
    @Param('name') name: string,
    @ZodBody(ApiWorkspaceSkillPutSchema) body: ApiWorkspaceSkillPut,
  ) {
    return this.rpc.request(S.putSkill, { actor, agentId, name, body });
  }

  @Delete('skills/workspace/:name')
  @DocReply(ApiWorkspaceDeletedSchema)
  deleteSkill(@CurrentActor() actor: Actor, @Param('id') agentId: string, @Param('name') name: string) {
    return this.rpc.request(S.deleteSkill, { actor, agentId, name });
  }

  @Get('workspace/subagents')
  @DocReply(ApiWorkspaceSubagentSchema, { list: true })
  async subagents(@CurrentActor() actor: Actor, @Param('id') agentId: string) {
    return (await this.rpc.request(S.listSubagents, { actor, agentId })).data;
  }

  @Put('workspace/subagents/:name')
  @DocReply(ApiWorkspaceSubagentSchema)
  putSubagent(
    @CurrentActor() actor: Actor,
    @Param('id') agentId: string,
    @Param('name') name: string,
    @ZodBody(ApiWorkspaceSubagentPutSchema) body: ApiWorkspaceSubagentPut,
  ) {
    return this.rpc.request(S.putSubagent, { actor, agentId, name, body });
  }

  @Delete('workspace/subagents/:name')
  @DocReply(ApiWorkspaceDeletedSchema)
  deleteSubagent(@CurrentActor() actor: Actor, @Param('id') agentId: string, @Param('name') name: string) {
    return this.rpc.request(S.deleteSubagent, { actor, agentId, name });
  }
}
