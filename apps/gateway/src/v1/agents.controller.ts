import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import {
  CreateAgentRequestSchema,
  ListParamsSchema,
  RetrieveAgentParamsSchema,
  UpdateAgentRequestSchema,
} from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/agents')
export class AgentsController extends rpcRoutes({
  create: { route: 'POST', subject: S.createAgent, body: CreateAgentRequestSchema },
  list: { route: 'GET', subject: S.listAgents, query: ListParamsSchema },
  get: { route: 'GET :id', subject: S.getAgent, query: RetrieveAgentParamsSchema },
  update: { route: 'POST :id', subject: S.updateAgent, body: UpdateAgentRequestSchema },
  archive: { route: 'POST :id/archive', subject: S.archiveAgent },
  versions: { route: 'GET :id/versions', subject: S.listAgentVersions, query: ListParamsSchema },
}) {}
