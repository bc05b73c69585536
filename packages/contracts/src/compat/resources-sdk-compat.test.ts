import { describe, expect, it } from 'vitest';
import type {
  BetaManagedAgentsVault,
  VaultCreateParams,
} from '@anthropic-ai/sdk/resources/beta/vaults/vaults.js';
import type {
  BetaManagedAgentsCredential,
  CredentialCreateParams,
} from '@anthropic-ai/sdk/resources/beta/vaults/credentials.js';
import type { BetaManagedAgentsMemoryStore } from '@anthropic-ai/sdk/resources/beta/memory-stores/memory-stores.js';
import type {
  BetaManagedAgentsMemory,
  MemoryListParams,
} from '@anthropic-ai/sdk/resources/beta/memory-stores/memories.js';
import type { BetaManagedAgentsMemoryVersion } from '@anthropic-ai/sdk/resources/beta/memory-stores/memory-versions.js';
import type {
  BetaManagedAgentsDeployment,
  DeploymentCreateParams,
} from '@anthropic-ai/sdk/resources/beta/deployments.js';
import type { BetaManagedAgentsDeploymentRun } from '@anthropic-ai/sdk/resources/beta/deployment-runs.js';
import type { BetaSkill, BetaSkillVersion } from '@anthropic-ai/sdk/resources/beta/skills/index.js';
import type { BetaFileMetadata } from '@anthropic-ai/sdk/resources/beta/files.js';
import { CreateVaultRequestSchema, VaultSchema } from '../vaults/vaults.js';
import {
  CreateCredentialRequestSchema,
  CredentialSchema,
  publicCredentialAuth,
} from '../vaults/vault-credentials.js';
import {
  CreateMemoryRequestSchema,
  ListMemoriesParamsSchema,
  MemorySchema,
  MemoryStoreSchema,
  MemoryVersionSchema,
} from '../memory-stores/memory-stores.js';
import {
  CreateDeploymentRequestSchema,
  DeploymentRunSchema,
  DeploymentSchema,
} from '../deployments/deployments.js';
import { SkillSchema, SkillVersionSchema } from '../skills/skills.js';
import { FileMetadataSchema } from '../files/files.js';

const at = '2026-11-30T12:00:00.000Z';

describe('vaults and credentials', () => {
  it('accept SDK-typed objects and requests', () => {
    const vault: BetaManagedAgentsVault = {
      id: 'vlt_1',
      type: 'vault',
      display_name: 'prod',
      metadata: {},
      created_at: at,
      updated_at: at,
      archived_at: null,
    };
    expect(VaultSchema.parse(vault)).toEqual(vault);
    const create: VaultCreateParams = { display_name: 'prod', metadata: { env: 'prod' } };
    expect(CreateVaultRequestSchema.parse(create)).toEqual(create);
    const cred: BetaManagedAgentsCredential = {
      id: 'vcrd_011CZkZEMt8gZan2iYPQfSkw',
      type: 'vault_credential',
      vault_id: 'vlt_1',
      auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.example.com' },
      metadata: {},
      created_at: at,
      updated_at: at,
      archived_at: null,
    };
    expect(CredentialSchema.parse(cred)).toEqual(cred);
  });

  it('never lets a secret through the returned shape', () => {
    const requests: CredentialCreateParams[] = [
      { auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.example.com', token: 'tok-SECRET' } },
      {
        auth: {
          type: 'environment_variable',
          secret_name: 'GITHUB_TOKEN',
          secret_value: 'ghp_SECRET',
          networking: { type: 'limited', allowed_hosts: ['api.github.com'] },
        },
      },
      {
        auth: {
          type: 'mcp_oauth',
          mcp_server_url: 'https://mcp.example.com',
          access_token: 'at-SECRET',
          refresh: {
            client_id: 'cid',
            refresh_token: 'rt-SECRET',
            token_endpoint: 'https://auth.example.com/token',
            token_endpoint_auth: { type: 'client_secret_post', client_secret: 'cs-SECRET' },
          },
        },
      },
    ];
    for (const req of requests) {
      const parsed = CreateCredentialRequestSchema.parse(req);
      const shown = publicCredentialAuth(parsed.auth);
      expect(JSON.stringify(shown)).not.toContain('SECRET');
      expect(CredentialSchema.shape.auth.parse(shown)).toEqual(shown);
    }
  });

  it('rejects a returned object that carries a secret field', () => {
    const leaked = { type: 'static_bearer', mcp_server_url: 'https://mcp.example.com', token: 'tok' };
    const result = CredentialSchema.shape.auth.safeParse(leaked);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toContain('token');
  });
});

describe('memory stores', () => {
  it('accept SDK-typed objects', () => {
    const store: BetaManagedAgentsMemoryStore = {
      id: 'memstore_1',
      type: 'memory_store',
      name: 'notes',
      description: '',
      metadata: {},
      created_at: at,
      updated_at: at,
      archived_at: null,
    };
    const memory: BetaManagedAgentsMemory = {
      id: 'mem_1',
      type: 'memory',
      memory_store_id: 'memstore_1',
      memory_version_id: 'memver_1',
      path: '/prefs/editor.md',
      content_sha256: 'a'.repeat(64),
      content_size_bytes: 3,
      content: 'vim',
      created_at: at,
      updated_at: at,
    };
    const version: BetaManagedAgentsMemoryVersion = {
      id: 'memver_1',
      type: 'memory_version',
      memory_id: 'mem_1',
      memory_store_id: 'memstore_1',
      operation: 'created',
      created_by: { type: 'session_actor', session_id: 'sesn_1' },
      created_at: at,
    };
    expect(MemoryStoreSchema.parse(store)).toEqual(store);
    expect(MemorySchema.parse(memory)).toEqual(memory);
    expect(MemoryVersionSchema.parse(version)).toEqual(version);
  });

  it('validates memory paths and content size', () => {
    expect(CreateMemoryRequestSchema.safeParse({ path: '/a/b.md', content: 'x' }).success).toBe(true);
    for (const path of ['a.md', '/a/../b', '/a//b', '/a\u0007b', '/x'.repeat(600)]) {
      const result = CreateMemoryRequestSchema.safeParse({ path, content: 'x' });
      expect(result.success, path.slice(0, 20)).toBe(false);
      expect(result.error!.issues[0]!.path).toEqual(['path']);
    }
    const big = CreateMemoryRequestSchema.safeParse({ path: '/big', content: 'é'.repeat(51_201) });
    expect(big.error!.issues[0]!.message).toContain('102400 bytes');
  });

  it('accepts the SDK list params, including its default depth 0, and refuses a negative depth', () => {
    const params: MemoryListParams = { depth: 0, path_prefix: '/notes/', view: 'basic' };
    expect(ListMemoriesParamsSchema.parse(params)).toMatchObject({ depth: 0, path_prefix: '/notes/' });
    // Query strings arrive as text.
    expect(ListMemoriesParamsSchema.parse({ depth: '0' }).depth).toBe(0);
    expect(ListMemoriesParamsSchema.parse({ depth: '2' }).depth).toBe(2);
    const negative = ListMemoriesParamsSchema.safeParse({ depth: '-1' });
    expect(negative.error!.issues[0]!.path).toEqual(['depth']);
  });
});

describe('deployments', () => {
  const create: DeploymentCreateParams = {
    name: 'nightly report',
    agent: 'agent_011CZkYpogX7uDKUyvBTophP',
    environment_id: 'env_1',
    initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'write the report' }] }],
    schedule: { type: 'cron', expression: '0 9 * * MON-FRI', timezone: 'Europe/Berlin' },
  };

  it('accept the SDK create shape', () => {
    expect(CreateDeploymentRequestSchema.parse(create)).toEqual(create);
  });

  it('reject bad cron expressions and time zones, naming the field', () => {
    for (const [schedule, field] of [
      [{ type: 'cron', expression: '0 9 * *', timezone: 'UTC' }, 'expression'],
      [{ type: 'cron', expression: '0 9 L * *', timezone: 'UTC' }, 'expression'],
      [{ type: 'cron', expression: '0 9 * * 1', timezone: 'Mars/Olympus' }, 'timezone'],
    ] as const) {
      const result = CreateDeploymentRequestSchema.safeParse({ ...create, schedule });
      expect(result.error!.issues[0]!.path).toEqual(['schedule', field]);
    }
  });

  it('accept SDK-typed deployments and runs', () => {
    const deployment: BetaManagedAgentsDeployment = {
      id: 'depl_011CZkZcDH3vPqd7xnEfwTai',
      type: 'deployment',
      name: 'nightly report',
      description: null,
      agent: { type: 'agent', id: 'agent_1', version: 2 },
      environment_id: 'env_1',
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
      resources: [{ type: 'file', file_id: 'file_1', mount_path: null }],
      vault_ids: [],
      schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC', upcoming_runs_at: [at] },
      status: 'paused',
      paused_reason: { type: 'error', error: { type: 'agent_archived_error' } },
      metadata: {},
      created_at: at,
      updated_at: at,
      archived_at: null,
    };
    const run: BetaManagedAgentsDeploymentRun = {
      id: 'drun_1',
      type: 'deployment_run',
      deployment_id: deployment.id,
      agent: { type: 'agent', id: 'agent_1', version: 2 },
      session_id: null,
      error: { type: 'vault_not_found_error', message: 'vault vlt_1 is gone' },
      trigger_context: { type: 'schedule', scheduled_at: at },
      created_at: at,
    };
    expect(DeploymentSchema.parse(deployment)).toEqual(deployment);
    expect(DeploymentRunSchema.parse(run)).toEqual(run);
  });
});

describe('skills and files', () => {
  it('accept SDK-typed objects', () => {
    const skill: BetaSkill = {
      id: 'skill_1',
      type: 'skill',
      display_name: 'pdf',
      latest_version_id: '1759178010641129',
      source: { type: 'custom' },
      created_at: at,
      updated_at: at,
    };
    const version: BetaSkillVersion = {
      id: '1759178010641129',
      type: 'skill_version',
      skill_id: 'skill_1',
      name: 'pdf',
      description: 'PDF tools',
      created_at: at,
    };
    const file: BetaFileMetadata = {
      id: 'file_011CNha8iCJcU1wXNR6q4V8w',
      type: 'file',
      filename: 'a.csv',
      mime_type: 'text/csv',
      size_bytes: 12,
      created_at: at,
      downloadable: true,
    };
    expect(SkillSchema.parse(skill)).toEqual(skill);
    expect(SkillVersionSchema.parse(version)).toEqual(version);
    expect(FileMetadataSchema.parse(file)).toEqual(file);
  });
});
