import { Controller, UseFilters } from '@nestjs/common';
import { ControlWorkspaceSubjects as S } from '@agentry/contracts';
import {
  ApiWorkspaceFileQuerySchema,
  ApiWorkspaceFileWriteSchema,
  ApiWorkspaceMoveSchema,
  ApiWorkspaceSkillPutSchema,
  ApiWorkspaceSubagentPutSchema,
} from '@agentry/contracts/api';
import { rpcRoutes } from '../http/rpc-routes.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** A list answers as a bare array, the items of control's page. */
const answersList = { reply: (page: { data: unknown[] }) => page.data };

/**
 * An agent's workspace files (AGENTS.md, knowledge/, skills/, subagents/, tools.json): what every turn
 * of the agent reads. Reads need access to the agent, writes the right to edit it; paths cross the
 * workspace path guard in control.
 */
@Controller('api/agents/:id')
@UseFilters(ApiErrorFilter)
export class ApiAgentWorkspaceController extends rpcRoutes(
  {
    summary: { route: 'GET workspace', subject: S.summary },
    files: {
      route: 'GET workspace/files',
      subject: S.listFiles,
      ...answersList,
    },
    readFile: {
      route: 'GET workspace/file',
      subject: S.readFile,
      query: ApiWorkspaceFileQuerySchema,
    },
    writeFile: {
      route: 'PUT workspace/file',
      subject: S.writeFile,
      body: ApiWorkspaceFileWriteSchema,
    },
    deleteFile: {
      route: 'DELETE workspace/file',
      subject: S.deleteFile,
      query: ApiWorkspaceFileQuerySchema,
    },
    moveFile: {
      route: 'POST workspace/file/move',
      subject: S.moveFile,
      body: ApiWorkspaceMoveSchema,
    },
    skills: {
      route: 'GET skills/workspace',
      subject: S.listSkills,
      ...answersList,
    },
    skill: { route: 'GET skills/workspace/:name', subject: S.getSkill },
    putSkill: {
      route: 'PUT skills/workspace/:name',
      subject: S.putSkill,
      body: ApiWorkspaceSkillPutSchema,
    },
    deleteSkill: {
      route: 'DELETE skills/workspace/:name',
      subject: S.deleteSkill,
    },
    subagents: {
      route: 'GET workspace/subagents',
      subject: S.listSubagents,
      ...answersList,
    },
    putSubagent: {
      route: 'PUT workspace/subagents/:name',
      subject: S.putSubagent,
      body: ApiWorkspaceSubagentPutSchema,
    },
    deleteSubagent: {
      route: 'DELETE workspace/subagents/:name',
      subject: S.deleteSubagent,
    },
  },
  { id: 'agentId' },
) {}
