import { ControlSubjects } from '@agentry/contracts';
import {
  AgentSchema,
  CreateAgentRequestSchema,
  ListParamsSchema,
  RetrieveAgentParamsSchema,
  UpdateAgentRequestSchema,
} from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_AGENTS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/agents',
    operationId: 'agents_list',
    summary: 'List agents',
    query: ListParamsSchema,
    reply: ControlSubjects.listAgents.response,
  },
  {
    method: 'post',
    path: '/v1/agents',
    operationId: 'agents_create',
    summary: 'Create an agent',
    body: CreateAgentRequestSchema,
    reply: AgentSchema,
  },
  {
    method: 'get',
    path: '/v1/agents/{id}',
    operationId: 'agents_get',
    summary: 'Get an agent',
    query: RetrieveAgentParamsSchema,
    reply: AgentSchema,
  },
  {
    method: 'post',
    path: '/v1/agents/{id}',
    operationId: 'agents_update',
    summary: 'Update an agent',
    body: UpdateAgentRequestSchema,
    reply: AgentSchema,
  },
  {
    method: 'post',
    path: '/v1/agents/{id}/archive',
    operationId: 'agents_archive',
    summary: 'Archive an agent',
    reply: AgentSchema,
  },
  {
    method: 'get',
    path: '/v1/agents/{id}/versions',
    operationId: 'agents_versions',
    summary: "List an agent's versions",
    query: ListParamsSchema,
    reply: ControlSubjects.listAgentVersions.response,
  },
];
