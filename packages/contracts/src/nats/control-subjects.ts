import { AgentSubjects } from '../agents/agent-subjects.js';
import { DeploymentSubjects } from '../deployments/deployment-subjects.js';
import { EnvironmentSubjects } from '../environments/environment-subjects.js';
import { FileSubjects } from '../files/file-subjects.js';
import { MemoryStoreSubjects } from '../memory-stores/memory-store-subjects.js';
import { DreamSubjects } from '../dreams/dream-subjects.js';
import { SessionSubjects } from '../sessions/session-subjects.js';
import { SkillSubjects } from '../skills/skill-subjects.js';
import { AccessSubjects } from '../tenancy/access-subjects.js';
import { AuthSubjects } from '../tenancy/auth-subjects.js';
import { TenancySubjects } from '../tenancy/tenancy-subjects.js';
import { VaultSubjects } from '../vaults/vault-subjects.js';
import { WebhookSubjects } from '../webhooks/webhook-subjects.js';

/**
 * Every request/reply subject the control service answers, gathered from each entity's own catalog.
 * The agent workspace keeps its catalog apart (`ControlWorkspaceSubjects`): its keys name workspace items.
 */
export const ControlSubjects = {
  ...AuthSubjects,
  ...AgentSubjects,
  ...EnvironmentSubjects,
  ...SessionSubjects,
  ...VaultSubjects,
  ...WebhookSubjects,
  ...MemoryStoreSubjects,
  ...DreamSubjects,
  ...DeploymentSubjects,
  ...FileSubjects,
  ...SkillSubjects,
  ...AccessSubjects,
  ...TenancySubjects,
} as const;
