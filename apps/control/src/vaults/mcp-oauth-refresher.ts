import { Inject, Injectable } from '@nestjs/common';
import { AppError, type CredentialAuth } from '@agentry/contracts';
import { EgressGuard, guarded } from '@agentry/harness';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { VaultCredential, ServiceDatabase } from '@agentry/db';
import { AuditLogService } from '../audit/audit-log.service.js';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';
import type { CredentialSecrets } from './credential-secrets.js';
import { SecretCipher } from './secret-cipher.js';
import { SessionCredentialsRepository } from './session-credentials.repository.js';

type OAuthTarget = Extract<CredentialAuth, { type: 'mcp_oauth' }>;

const TOKEN_ENDPOINT_TIMEOUT_MS = 10_000;

/**
 * Refreshes a session's `mcp_oauth` credential with its refresh token (RFC 6749 §6) at the credential's token
 * endpoint, and keeps the new access token (and a rotated refresh token) sealed. Concurrent refreshes of one
 * credential share one request, so a rotating refresh token is spent once.
 */
@Injectable()
export class McpOAuthRefresher {
  private readonly inFlight = new Map<string, Promise<{ access_token: string; expires_at: string | null }>>();
  private readonly guard: EgressGuard;

  constructor(
    private readonly repository: SessionCredentialsRepository,
    private readonly cipher: SecretCipher,
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    private readonly audit: AuditLogService,
    @Inject(CONTROL_CONFIG) config: ControlEnv,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.guard = new EgressGuard({ allowPrivateNetworks: config.AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS });
  }

  refresh(
    tenantId: string,
    sessionId: string,
    credentialId: string,
  ): Promise<{ access_token: string; expires_at: string | null }> {
    let pending = this.inFlight.get(credentialId);
    if (!pending) {
      pending = this.run(tenantId, sessionId, credentialId).finally(() => this.inFlight.delete(credentialId));
      this.inFlight.set(credentialId, pending);
    }
    return pending;
  }

  private async run(
    tenantId: string,
    sessionId: string,
    credentialId: string,
  ): Promise<{ access_token: string; expires_at: string | null }> {
    const vaultIds = (await this.repository.vaultIdsOf(tenantId, sessionId)) ?? [];
    const row = (await this.repository.activeCredentials(tenantId, vaultIds, ['mcp_oauth'])).find(
      (r) => r.id === credentialId,
    );
    if (!row)
      throw new AppError(
        'NOT_FOUND',
        `mcp_oauth credential ${credentialId} is not in a live vault of session ${sessionId}`,
      );
    const target = row.target as OAuthTarget;
    const secrets = JSON.parse(this.cipher.open(row, row.id)) as CredentialSecrets;
    if (!target.refresh || !secrets.refresh_token) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `vault credential ${credentialId} has no refresh token; update its access token in vault ${row.vaultId}`,
      );
    }
    const answer = await this.callTokenEndpoint(target.refresh, secrets).catch(async (error: unknown) => {
      await this.refreshFailed(tenantId, row, sessionId);
      throw error;
    });
    const next: CredentialSecrets = {
      ...secrets,
      access_token: answer.access_token,
      ...(answer.refresh_token ? { refresh_token: answer.refresh_token } : {}),
    };
    const expires_at =
      typeof answer.expires_in === 'number'
        ? new Date(this.clock.nowMs() + answer.expires_in * 1000).toISOString()
        : null;
    await this.persist(row, { ...target, expires_at }, next);
    return { access_token: answer.access_token, expires_at };
  }

  private async callTokenEndpoint(
    refresh: NonNullable<OAuthTarget['refresh']>,
    secrets: CredentialSecrets,
  ): Promise<{ access_token: string; refresh_token?: string; expires_in?: number }> {
    const endpoint = new URL(refresh.token_endpoint);
    const refusal = await this.guard.refusal(endpoint);
    if (refusal)
      throw failure(`the token endpoint ${endpoint.origin} is refused by the egress policy: ${refusal}`);
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: secrets.refresh_token! });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const auth = refresh.token_endpoint_auth.type;
    if (auth === 'client_secret_basic') {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(refresh.client_id)}:${encodeURIComponent(secrets.client_secret ?? '')}`).toString('base64')}`;
    } else {
      form.set('client_id', refresh.client_id);
      if (auth === 'client_secret_post') form.set('client_secret', secrets.client_secret ?? '');
    }
    if (refresh.scope) form.set('scope', refresh.scope);
    if (refresh.resource) form.set('resource', refresh.resource);
    let response: Response;
    try {
      response = await fetch(
        endpoint,
        guarded(this.guard, {
          method: 'POST',
          headers,
          body: form,
          redirect: 'error',
          signal: AbortSignal.timeout(TOKEN_ENDPOINT_TIMEOUT_MS),
        }),
      );
    } catch (error) {
      throw failure(
        `the token endpoint ${endpoint.origin} could not be reached (${(error as Error).message})`,
      );
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      // Only the standard error fields are repeated, never the body, which could echo what was sent.
      const code = typeof body.error === 'string' ? `: ${body.error.slice(0, 100)}` : '';
      throw failure(
        `the token endpoint ${endpoint.origin} refused the refresh (HTTP ${response.status}${code})`,
      );
    }
    if (typeof body.access_token !== 'string' || body.access_token === '')
      throw failure(`the token endpoint ${endpoint.origin} answered without an access_token`);
    return {
      access_token: body.access_token,
      ...(typeof body.refresh_token === 'string' && body.refresh_token
        ? { refresh_token: body.refresh_token }
        : {}),
      ...(typeof body.expires_in === 'number' ? { expires_in: body.expires_in } : {}),
    };
  }

  /**
   * The audit entry (and `vault_credential.refresh_failed` webhook event) of a refresh the token endpoint
   * did not grant, recorded on behalf of the platform in the vault's namespace; the reason stays out of it.
   */
  private async refreshFailed(tenantId: string, row: VaultCredential, sessionId: string): Promise<void> {
    const vault = await this.db.vault.findUnique({
      where: { id: row.vaultId },
      select: { namespaceId: true },
    });
    if (!vault) return;
    const platform = {
      tenantId,
      namespaceId: vault.namespaceId,
      userId: null,
      apiKeyId: null,
      role: 'admin' as const,
    };
    await this.audit.record(platform, {
      action: 'refresh_failed',
      resourceType: 'vault_credential',
      resourceId: row.id,
      details: { vaultId: row.vaultId, sessionId },
    });
  }

  private async persist(
    row: VaultCredential,
    target: OAuthTarget,
    secrets: CredentialSecrets,
  ): Promise<void> {
    const sealed = this.cipher.seal(JSON.stringify(secrets), row.id);
    await this.db.vaultCredential.update({ where: { id: row.id }, data: { ...sealed, target } });
  }
}

function failure(message: string): AppError {
  return new AppError('MCP_CONNECTION_FAILED', message);
}
