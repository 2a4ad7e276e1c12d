import { DomainError } from '../../errors.ts';
import type { ConnectorDefinition } from '../schema.ts';
import { RefreshRejectedError } from './oauth2.ts';

/**
 * What a failed credential check means to the client: a refused token request or a 401/403 answer is
 * INVALID_CREDENTIALS (the user's to fix), anything else stays as it is.
 */
export function credentialCheckError(def: ConnectorDefinition, err: unknown): unknown {
  if (err instanceof RefreshRejectedError) {
    return new DomainError(
      'INVALID_CREDENTIALS',
      `The provider did not accept these credentials: ${err.reason} Check the refresh token, client id and client secret.`,
      {
        errors: [
          {
            field: 'credentials',
            message: 'refused by the token endpoint',
            error_code: 'invalid_credentials',
            details: null,
          },
        ],
      },
    );
  }
  if (
    err instanceof DomainError &&
    (err.code === 'UPSTREAM_AUTH_FAILED' || err.code === 'UPSTREAM_FORBIDDEN')
  ) {
    const upstream = (err.extra?.upstream ?? {}) as { status?: number; body?: Record<string, unknown> };
    const said = typeof upstream.body?.message === 'string' ? `: ${upstream.body.message}` : '';
    return new DomainError(
      'INVALID_CREDENTIALS',
      `The provider rejected these credentials (${def.name} answered HTTP ${upstream.status ?? '4xx'}${said}). Check the token and its scopes.`,
      {
        extra: err.extra,
        errors: [
          {
            field: 'credentials',
            message: 'rejected by the provider',
            error_code: 'invalid_credentials',
          },
        ],
      },
    );
  }
  return err;
}
