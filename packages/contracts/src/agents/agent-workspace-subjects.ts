import { z } from 'zod';
import {
  ApiWorkspaceDeletedSchema,
  ApiWorkspaceEntryListSchema,
  ApiWorkspaceEntrySchema,
  ApiWorkspaceFileQuerySchema,
  ApiWorkspaceFileSchema,
  ApiWorkspaceFileWriteSchema,
  ApiWorkspaceMoveSchema,
  ApiWorkspaceSkillListSchema,
  ApiWorkspaceSkillPutSchema,
  ApiWorkspaceSkillSchema,
  ApiWorkspaceSubagentListSchema,
  ApiWorkspaceSubagentPutSchema,
  ApiWorkspaceSubagentSchema,
  ApiWorkspaceSummarySchema,
} from './api-agent-workspace.js';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';

const onAgent = { v: V1, actor: ActorSchema, agentId: z.string().min(1) };
// Names are checked by control (a typed 400 naming the rule), so any string crosses the wire.
const onItem = { ...onAgent, name: z.string() };

/** Control owns an agent's workspace files (the ones its turns read); the gateway serves them under `/api`. */
export const ControlWorkspaceSubjects = {
  summary: rpcSubject('control.agent_workspace.summary', z.object(onAgent), ApiWorkspaceSummarySchema),
  listFiles: rpcSubject('control.agent_workspace.files', z.object(onAgent), ApiWorkspaceEntryListSchema),
  readFile: rpcSubject(
    'control.agent_workspace.read',
    z.object({ ...onAgent, query: ApiWorkspaceFileQuerySchema }),
    ApiWorkspaceFileSchema,
  ),
  writeFile: rpcSubject(
    'control.agent_workspace.write',
    z.object({ ...onAgent, body: ApiWorkspaceFileWriteSchema }),
    ApiWorkspaceEntrySchema,
  ),
  deleteFile: rpcSubject(
    'control.agent_workspace.delete',
    z.object({ ...onAgent, query: ApiWorkspaceFileQuerySchema }),
    ApiWorkspaceDeletedSchema,
  ),
  moveFile: rpcSubject(
    'control.agent_workspace.move',
    z.object({ ...onAgent, body: ApiWorkspaceMoveSchema }),
    ApiWorkspaceEntrySchema,
  ),
  listSkills: rpcSubject('control.agent_workspace.skills', z.object(onAgent), ApiWorkspaceSkillListSchema),
  getSkill: rpcSubject('control.agent_workspace.skill.get', z.object(onItem), ApiWorkspaceSkillSchema),
  putSkill: rpcSubject(
    'control.agent_workspace.skill.put',
    z.object({ ...onItem, body: ApiWorkspaceSkillPutSchema }),
    ApiWorkspaceSkillSchema,
  ),
  deleteSkill: rpcSubject(
    'control.agent_workspace.skill.delete',
    z.object(onItem),
    ApiWorkspaceDeletedSchema,
  ),
  listSubagents: rpcSubject(
    'control.agent_workspace.subagents',
    z.object(onAgent),
    ApiWorkspaceSubagentListSchema,
  ),
  putSubagent: rpcSubject(
    'control.agent_workspace.subagent.put',
    z.object({ ...onItem, body: ApiWorkspaceSubagentPutSchema }),
    ApiWorkspaceSubagentSchema,
  ),
  deleteSubagent: rpcSubject(
    'control.agent_workspace.subagent.delete',
    z.object(onItem),
    ApiWorkspaceDeletedSchema,
  ),
} as const;
