import { DomainError } from '../../errors.ts';
import { hashClientSecret, verifyClientSecret } from '../../security/client-secrets.ts';
import type { CoreDeps } from '../context.ts';

export interface ApplicationTokenInput {
  client_id: string;
  client_secret: string;
  /** Value of the X-Organization-Id header, when given. */
  organizationId?: string;
  /** Where the request came from, for the failed-attempt limit per address (absent: an in-process caller). */
  sourceAddress?: string;
}

export interface ApplicationTokenResult {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  organization_id: string;
}

const badCredentials = () =>
  new DomainError('INVALID_CLIENT_CREDENTIALS', 'Invalid client_id or client_secret.');

export async function issueApplicationToken(
  deps: Pick<CoreDeps, 'store' | 'tokens' | 'secrets' | 'tokenAttempts'>,
  input: ApplicationTokenInput,
): Promise<ApplicationTokenResult> {
  // Before the secret is looked at: a throttled guess must learn nothing, not even whether it was right.
  const wait = deps.tokenAttempts.retryAfter(input.client_id, input.sourceAddress);
  if (wait > 0) {
    throw new DomainError(
      'RATE_LIMITED',
      `Too many failed token requests for this client_id or from this address; retry in ${wait} s.`,
      { retryAfter: wait },
    );
  }
  const failed = () => {
    deps.tokenAttempts.recordFailure(input.client_id, input.sourceAddress);
    return badCredentials();
  };
  const app = await deps.store.applications.findByClientIdForLogin(input.client_id);
  if (!app) {
    // Hash anyway so an unknown client_id costs the same time as a wrong secret.
    hashClientSecret(deps.secrets.clientSecretPepper, input.client_secret);
    throw failed();
  }
  if (!verifyClientSecret(deps.secrets.clientSecretPepper, input.client_secret, app.secret_hash)) {
    throw failed();
  }
  deps.tokenAttempts.recordSuccess(input.client_id, input.sourceAddress);

  const orgIds = await deps.store.accounts.organizationIds(app.account_id);
  let organizationId: string;
  if (input.organizationId !== undefined) {
    if (!orgIds.includes(input.organizationId)) {
      throw new DomainError(
        'NOT_FOUND',
        `Organization ${input.organizationId} not found for this application.`,
      );
    }
    organizationId = input.organizationId;
  } else if (orgIds.length === 1) {
    organizationId = orgIds[0]!;
  } else if (orgIds.length === 0) {
    throw new DomainError('FORBIDDEN', 'This application is not a member of any organization.');
  } else {
    throw new DomainError(
      'ORGANIZATION_REQUIRED',
      'This application belongs to several organizations; specify target organization with the X-Organization-Id header.',
      {
        errors: [
          {
            field: 'X-Organization-Id',
            message: 'specify target organization',
            error_code: 'organization_required',
            details: { organization_ids: orgIds },
          },
        ],
      },
    );
  }

  const { token, expiresIn } = await deps.tokens.issue({
    kind: 'application',
    applicationId: app.id,
    organizationId,
  });
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: expiresIn,
    organization_id: organizationId,
  };
}
