import { describe, expect, it } from 'vitest';
import { CreateCredentialRequestSchema, type Credential } from '../vaults/vault-credentials.js';
import { MEMORY_CONTENT_MAX_BYTES } from '../memory-stores/memory-stores.js';
import {
  ApiPutMemoryRequestSchema,
  ApiRedactMemoryRequestSchema,
  apiMemoryPathToV1,
} from '../memory-stores/api-memories.js';
import {
  ApiCreateCredentialRequestSchema,
  apiCredentialToV1,
  apiCredentialUpdateToV1,
  credentialToApi,
} from '../vaults/api-vault-credentials.js';

describe('/api credential mapping', () => {
  it('maps each AgentScope type onto a valid CMA credential, the target naming the variable or server', () => {
    const env = apiCredentialToV1(
      ApiCreateCredentialRequestSchema.parse({
        type: 'environment_variable',
        label: 'GH_TOKEN',
        secret: 's1',
      }),
    );
    expect(CreateCredentialRequestSchema.parse(env).auth).toMatchObject({
      type: 'environment_variable',
      secret_name: 'GH_TOKEN',
      secret_value: 's1',
    });
    const oauth = apiCredentialToV1(
      ApiCreateCredentialRequestSchema.parse({
        type: 'oauth_token',
        target: 'https://mcp.test/sse',
        secret: 's2',
      }),
    );
    expect(CreateCredentialRequestSchema.parse(oauth).auth).toEqual({
      type: 'mcp_oauth',
      mcp_server_url: 'https://mcp.test/sse',
      access_token: 's2',
    });
  });

  it('names target when it cannot be a variable name or a URL', () => {
    const bad = ApiCreateCredentialRequestSchema.safeParse({
      type: 'static_bearer',
      target: 'nope',
      secret: 's',
    });
    expect(bad.error?.issues[0]?.path).toEqual(['target']);
  });

  it('puts a new secret where the credential type keeps it, and replies without it', () => {
    expect(apiCredentialUpdateToV1('static_bearer', { secret: 'new', label: 'x' })).toEqual({
      display_name: 'x',
      auth: { type: 'static_bearer', token: 'new' },
    });
    const credential: Credential = {
      type: 'vault_credential',
      id: 'vcrd_1',
      vault_id: 'vlt_1',
      display_name: 'CI',
      auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.test/sse' },
      metadata: {},
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      archived_at: null,
    };
    expect(credentialToApi(credential)).toEqual({
      id: 'vcrd_1',
      type: 'static_bearer',
      label: 'CI',
      target: 'https://mcp.test/sse',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });
});

describe('/api memory paths', () => {
  it('reads a store-relative path as the absolute one stores keep', () => {
    expect(apiMemoryPathToV1('notes/a.md')).toBe('/notes/a.md');
    expect(apiMemoryPathToV1('/notes/a.md')).toBe('/notes/a.md');
  });
});

describe('/api memory content', () => {
  it('refuses content and replacements past the memory limit before anything is written', () => {
    const tooLarge = 'x'.repeat(MEMORY_CONTENT_MAX_BYTES + 1);
    expect(
      ApiPutMemoryRequestSchema.safeParse({ content: 'x'.repeat(MEMORY_CONTENT_MAX_BYTES) }).success,
    ).toBe(true);
    expect(ApiPutMemoryRequestSchema.safeParse({ content: tooLarge }).error?.issues[0]?.message).toMatch(
      /at most 102400 bytes/,
    );
    expect(
      ApiRedactMemoryRequestSchema.safeParse({ path: 'a.md', replacement: tooLarge }).error?.issues[0]?.path,
    ).toEqual(['replacement']);
  });
});
