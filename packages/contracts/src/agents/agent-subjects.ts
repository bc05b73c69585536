import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { ListParamsSchema } from '../common/common.js';
import { pageSchema } from '../common/paging.js';
import {
  AgentSchema,
  CreateAgentRequestSchema,
  RetrieveAgentParamsSchema,
  UpdateAgentRequestSchema,
} from './agents.js';

/** Request/reply subjects of the control service for agents and their versions. */
export const AgentSubjects = {
  createAgent: rpcSubject(
    'control.agent.create',
    z.object({ ...Scoped, body: CreateAgentRequestSchema }),
    AgentSchema,
  ),
  getAgent: rpcSubject(
    'control.agent.get',
    z.object({ ...ById, query: RetrieveAgentParamsSchema }),
    AgentSchema,
  ),
  listAgents: rpcSubject(
    'control.agent.list',
    z.object({ ...Scoped, query: ListParamsSchema }),
    pageSchema(AgentSchema),
  ),
  updateAgent: rpcSubject(
    'control.agent.update',
    z.object({ ...ById, body: UpdateAgentRequestSchema }),
    AgentSchema,
  ),
  archiveAgent: rpcSubject('control.agent.archive', z.object(ById), AgentSchema),
  listAgentVersions: rpcSubject(
    'control.agent.versions',
    z.object({ ...ById, query: ListParamsSchema }),
    pageSchema(AgentSchema),
  ),
} as const;
