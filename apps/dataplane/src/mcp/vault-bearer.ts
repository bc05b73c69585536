import type { McpServerCredential } from '@agentry/contracts';
import type { McpFetch } from '@agentry/harness';
import type { Clock } from '@agentry/platform';

/** A token this close to its expiry is refreshed before it is sent. */
const EXPIRY_MARGIN_MS = 30_000;
/** After a failed refresh, requests fail at once for this long instead of calling the token endpoint again. */
const RETRY_REFRESH_AFTER_MS = 30_000;

export interface CredentialFailure {
  serverName: string;
  credentialId: string;
  vaultId: string | undefined;
  message: string;
}

/**
 * The `Authorization` of one MCP server, from a vault credential of the session. An `mcp_oauth` token is
 * refreshed (by control, which holds the refresh token) before it expires and when the server answers 401,
 * and the request is sent again once. A refresh that fails is reported once (`onFailure`) and fails the
 * request with why, so the tool call's error says what the user has to fix.
 */
export class VaultBearer {
  private token: string;
  private expiresAt: number | null;
  private refreshing: Promise<void> | undefined;
  private failed: { message: string; at: number } | undefined;
  onFailure: (failure: CredentialFailure) => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly credential: McpServerCredential,
    private readonly serverName: string,
    private readonly refresher: (
      credentialId: string,
    ) => Promise<{ access_token: string; expires_at: string | null }>,
    private readonly clock: Clock,
  ) {
    this.token = credential.access_token;
    this.expiresAt = parseExpiry(credential.expires_at);
  }

  fetch(base: McpFetch): McpFetch {
    return async (url, init) => {
      if (
        this.refreshable &&
        this.expiresAt !== null &&
        this.expiresAt - EXPIRY_MARGIN_MS <= this.clock.nowMs()
      )
        await this.refresh();
      const response = await base(url, this.authorized(init));
      if (response.status !== 401 || !this.refreshable) return response;
      await response.body?.cancel().catch(() => undefined);
      await this.refresh();
      return base(url, this.authorized(init));
    };
  }

  private get refreshable(): boolean {
    return this.credential.type === 'mcp_oauth' && this.credential.refreshable === true;
  }

  private authorized(init: Parameters<McpFetch>[1]): Parameters<McpFetch>[1] {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${this.token}`);
    return { ...init, headers };
  }

  /** Refreshes once for all requests waiting on it; throws the failure's explanation. */
  private async refresh(): Promise<void> {
    if (this.failed && this.clock.nowMs() - this.failed.at < RETRY_REFRESH_AFTER_MS)
      throw new Error(this.failed.message);
    this.refreshing ??= this.runRefresh().finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
  }

  private async runRefresh(): Promise<void> {
    const { credential_id: credentialId, vault_id: vaultId } = this.credential;
    try {
      const fresh = await this.refresher(credentialId);
      this.token = fresh.access_token;
      this.expiresAt = parseExpiry(fresh.expires_at);
      this.failed = undefined;
    } catch (error) {
      const message =
        `the access token of vault credential ${credentialId}${vaultId ? ` (vault ${vaultId})` : ''} expired or was refused, and refreshing it failed: ` +
        `${(error as Error).message}. Update the credential's tokens to reconnect`;
      this.failed = { message, at: this.clock.nowMs() };
      await this.onFailure({ serverName: this.serverName, credentialId, vaultId, message }).catch(
        () => undefined,
      );
      throw new Error(message);
    }
  }
}

function parseExpiry(value: string | null | undefined): number | null {
  const at = value ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? null : at;
}
