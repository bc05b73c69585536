import {
  AppError,
  publicCredentialAuth,
  type CredentialAuth,
  type CredentialAuthParams,
  type UpdateCredentialRequest,
} from '@agentry/contracts';

/** The secret fields of one credential, kept apart from its public settings and only ever stored sealed. */
export type CredentialSecrets = Record<string, string>;

/** Splits a create request's auth into what may be returned and what must be sealed. */
export function splitCredentialAuth(auth: CredentialAuthParams): {
  target: CredentialAuth;
  secrets: CredentialSecrets;
} {
  const target = publicCredentialAuth(auth);
  switch (auth.type) {
    case 'static_bearer':
      return { target, secrets: { token: auth.token } };
    case 'environment_variable':
      return { target, secrets: { secret_value: auth.secret_value } };
    case 'mcp_oauth': {
      const secrets: CredentialSecrets = { access_token: auth.access_token };
      if (auth.refresh) secrets.refresh_token = auth.refresh.refresh_token;
      if (auth.refresh && auth.refresh.token_endpoint_auth.type !== 'none') {
        secrets.client_secret = auth.refresh.token_endpoint_auth.client_secret;
      }
      return { target, secrets };
    }
  }
}

type AuthUpdate = NonNullable<UpdateCredentialRequest['auth']>;

/** Applies an update's auth to the stored settings and secrets; the auth type itself cannot change. */
export function applyCredentialAuthUpdate(
  target: CredentialAuth,
  secrets: CredentialSecrets,
  update: AuthUpdate,
): { target: CredentialAuth; secrets: CredentialSecrets } {
  if (update.type !== target.type) {
    throw new AppError(
      'INVALID_REQUEST',
      `auth.type: a ${target.type} credential cannot become ${update.type}`,
    );
  }
  const next = { ...secrets };
  const setSecret = (key: string, value: string | null | undefined) => {
    if (value) next[key] = value;
  };
  if (update.type === 'static_bearer' && target.type === 'static_bearer') {
    setSecret('token', update.token);
    return { target, secrets: next };
  }
  if (update.type === 'environment_variable' && target.type === 'environment_variable') {
    setSecret('secret_value', update.secret_value);
    return {
      target: {
        ...target,
        networking: update.networking ?? target.networking,
        injection_location: {
          ...target.injection_location,
          ...stripUndefined(update.injection_location ?? {}),
        },
      },
      secrets: next,
    };
  }
  if (update.type === 'mcp_oauth' && target.type === 'mcp_oauth') {
    setSecret('access_token', update.access_token);
    const expires_at = update.expires_at === undefined ? target.expires_at : update.expires_at;
    if (update.refresh === null) {
      delete next.refresh_token;
      delete next.client_secret;
      return { target: { ...target, expires_at, refresh: null }, secrets: next };
    }
    if (update.refresh === undefined) return { target: { ...target, expires_at }, secrets: next };
    if (!target.refresh) {
      throw new AppError(
        'INVALID_REQUEST',
        'auth.refresh: this credential has no refresh settings to update',
      );
    }
    setSecret('refresh_token', update.refresh.refresh_token);
    const endpointAuth = update.refresh.token_endpoint_auth;
    if (endpointAuth) setSecret('client_secret', endpointAuth.client_secret);
    if (endpointAuth && !next.client_secret) {
      throw new AppError(
        'INVALID_REQUEST',
        `auth.refresh.token_endpoint_auth.client_secret: required for ${endpointAuth.type}`,
      );
    }
    return {
      target: {
        ...target,
        expires_at,
        refresh: {
          ...target.refresh,
          scope: update.refresh.scope === undefined ? target.refresh.scope : update.refresh.scope,
          token_endpoint_auth: endpointAuth
            ? { type: endpointAuth.type }
            : target.refresh.token_endpoint_auth,
        },
      },
      secrets: next,
    };
  }
  throw new AppError('INVALID_REQUEST', `auth.type: unsupported credential type ${update.type}`);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
