import { entitySubjects } from '../nats/entity-subjects.js';
import { ListParamsSchema } from '../common/common.js';
import { pageSchema } from '../common/paging.js';
import {
  AgentSchema,
  CreateAgentRequestSchema,
  RetrieveAgentParamsSchema,
  UpdateAgentRequestSchema,
} from './agents.js';

const agent = entitySubjects('control.agent', AgentSchema);

/** Request/reply subjects of the control service for agents and their versions. */
export const AgentSubjects = {
  createAgent: agent.create(CreateAgentRequestSchema),
  getAgent: agent.get({ query: RetrieveAgentParamsSchema }),
  listAgents: agent.list(ListParamsSchema),
  updateAgent: agent.update(UpdateAgentRequestSchema),
  archiveAgent: agent.onItem('archive'),
  listAgentVersions: agent.onItem('versions', pageSchema(AgentSchema), { query: ListParamsSchema }),
} as const;
