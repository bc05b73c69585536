import { describe, expect, it } from 'vitest';
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
import { ControlSubjects } from './control-subjects.js';

/** What these tests read of a subject definition. */
interface NamedSubject {
  subject: string;
}

const entityCatalogs = {
  AuthSubjects,
  AgentSubjects,
  EnvironmentSubjects,
  SessionSubjects,
  VaultSubjects,
  WebhookSubjects,
  MemoryStoreSubjects,
  DreamSubjects,
  DeploymentSubjects,
  FileSubjects,
  SkillSubjects,
  AccessSubjects,
  TenancySubjects,
};

// Which `control.<entity>.` subjects each entity catalog owns: every one of them, and nothing else.
const ownedSubjects: Record<keyof typeof entityCatalogs, RegExp> = {
  AuthSubjects: /^control\.auth\./,
  AgentSubjects: /^control\.agent\./,
  EnvironmentSubjects: /^control\.environment\./,
  SessionSubjects: /^control\.session\./,
  VaultSubjects: /^control\.vault(_credential)?\./,
  WebhookSubjects: /^control\.webhook\./,
  MemoryStoreSubjects: /^control\.memory(_store|_version)?\./,
  DreamSubjects: /^control\.dream\./,
  DeploymentSubjects: /^control\.deployment(_run)?\./,
  FileSubjects: /^control\.file\./,
  SkillSubjects: /^control\.skill(_version)?\./,
  AccessSubjects:
    /^control\.access\.(resolve_user$|change_password$|(user|namespace|api_key|audit|agent_share)\.)/,
  TenancySubjects: /^control\.access\.(tenant|namespace_member)\./,
};

describe('control subject catalogs', () => {
  it('gather every entity catalog into ControlSubjects without one key hiding another', () => {
    const entries = Object.values(entityCatalogs).flatMap((catalog) => Object.entries<NamedSubject>(catalog));
    expect(Object.keys(ControlSubjects)).toHaveLength(entries.length);
    for (const [key, subject] of entries)
      expect(ControlSubjects[key as keyof typeof ControlSubjects]).toBe(subject);
    const subjects = entries.map(([, s]) => s.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
  });

  it("keep each entity's subjects in that entity's catalog", () => {
    const all = Object.values(ControlSubjects).map((s) => s.subject);
    for (const [name, catalog] of Object.entries(entityCatalogs)) {
      const pattern = ownedSubjects[name as keyof typeof entityCatalogs];
      const own = Object.values<NamedSubject>(catalog).map((s) => s.subject);
      expect(
        own.filter((s) => !pattern.test(s)),
        name,
      ).toEqual([]);
      expect(
        all.filter((s) => pattern.test(s) && !own.includes(s)),
        name,
      ).toEqual([]);
    }
  });
});
