import { Controller, UseFilters } from '@nestjs/common';
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
} from '@agentry/contracts';
import type { z } from 'zod';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** Documents the reply; a list answers as a bare array, the items of control's page. */
function answers(schema: z.ZodType, options: { list?: boolean } = {}) {
  const decorators = [DocReply(schema, options)];
  return options.list ? { reply: (page: { data: unknown[] }) => page.data, decorators } : { decorators };
}

/**
 * An agent's workspace files (AGENTS.md, knowledge/, skills/, subagents/, tools.json): what every turn
 * of the agent reads. Reads need access to the agent, writes the right to edit it; paths cross the
 * workspace path guard in control.
 */
@Controller('api/agents/:id')
@UseFilters(ApiErrorFilter)
export class ApiAgentWorkspaceController extends rpcRoutes(
  {
    summary: { route: 'GET workspace', subject: S.summary, ...answers(ApiWorkspaceSummarySchema) },
    files: {
      route: 'GET workspace/files',
      subject: S.listFiles,
      ...answers(ApiWorkspaceEntrySchema, { list: true }),
    },
    readFile: {
      route: 'GET workspace/file',
      subject: S.readFile,
      query: ApiWorkspaceFileQuerySchema,
      ...answers(ApiWorkspaceFileSchema),
    },
    writeFile: {
      route: 'PUT workspace/file',
      subject: S.writeFile,
      body: ApiWorkspaceFileWriteSchema,
      ...answers(ApiWorkspaceEntrySchema),
    },
    deleteFile: {
      route: 'DELETE workspace/file',
      subject: S.deleteFile,
      query: ApiWorkspaceFileQuerySchema,
      ...answers(ApiWorkspaceDeletedSchema),
    },
    moveFile: {
      route: 'POST workspace/file/move',
      subject: S.moveFile,
      body: ApiWorkspaceMoveSchema,
      ...answers(ApiWorkspaceEntrySchema),
    },
    skills: {
      route: 'GET skills/workspace',
      subject: S.listSkills,
      ...answers(ApiWorkspaceSkillSummarySchema, { list: true }),
    },
    skill: { route: 'GET skills/workspace/:name', subject: S.getSkill, ...answers(ApiWorkspaceSkillSchema) },
    putSkill: {
      route: 'PUT skills/workspace/:name',
      subject: S.putSkill,
      body: ApiWorkspaceSkillPutSchema,
      ...answers(ApiWorkspaceSkillSchema),
    },
    deleteSkill: {
      route: 'DELETE skills/workspace/:name',
      subject: S.deleteSkill,
      ...answers(ApiWorkspaceDeletedSchema),
    },
    subagents: {
      route: 'GET workspace/subagents',
      subject: S.listSubagents,
      ...answers(ApiWorkspaceSubagentSchema, { list: true }),
    },
    putSubagent: {
      route: 'PUT workspace/subagents/:name',
      subject: S.putSubagent,
      body: ApiWorkspaceSubagentPutSchema,
      ...answers(ApiWorkspaceSubagentSchema),
    },
    deleteSubagent: {
      route: 'DELETE workspace/subagents/:name',
      subject: S.deleteSubagent,
      ...answers(ApiWorkspaceDeletedSchema),
    },
  },
  { id: 'agentId' },
) {}
