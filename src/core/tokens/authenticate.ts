import { DomainError } from '../../errors.ts';
import type { TokenClaims } from '../../security/tokens.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { cachedReads } from '../read-cache.ts';

/**
 * Turns a bearer token into a request context. Besides the signature and expiry, the application must still
 * exist, be unrevoked and belong to the organization, so `ces apps revoke` takes effect on the next request
 * (answered from memory until anything changes: src/core/read-cache.ts).
 */
export async function authenticate(
  deps: Pick<CoreDeps, 'tokens' | 'store'>,
  authorization: string | undefined,
): Promise<RequestContext> {
  const token = bearerToken(authorization);
  const claims = await deps.tokens.verify(token);
  const active = await cachedReads(deps.store).isApplicationActive(
    claims.applicationId,
    claims.organizationId,
  );
  return contextOf(claims, active);
}

/**
 * `authenticate` without a turn of the event loop, when everything it needs is in memory already (a token
 * verified before, its application's state kept); undefined otherwise. Throws what `authenticate` would.
 */
export function authenticateKept(
  deps: Pick<CoreDeps, 'tokens' | 'store'>,
  authorization: string | undefined,
): RequestContext | undefined {
  const claims = deps.tokens.verifiedBefore(bearerToken(authorization));
  if (!claims) return undefined;
  const active = cachedReads(deps.store).isApplicationActiveKept(claims.applicationId, claims.organizationId);
  return active === undefined ? undefined : contextOf(claims, active);
}

function bearerToken(authorization: string | undefined): string {
  if (!authorization) {
    throw new DomainError(
      'UNAUTHENTICATED',
      'Missing Authorization header; send "Authorization: Bearer <token>".',
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) {
    throw new DomainError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <token>".');
  }
  return match[1];
}

function contextOf(claims: TokenClaims, active: boolean): RequestContext {
  if (!active)
    throw new DomainError('UNAUTHENTICATED', 'The application behind this token has been revoked.');
  return {
    organizationId: claims.organizationId,
    applicationId: claims.applicationId,
    kind: claims.kind,
    ...(claims.workspaceId ? { workspaceId: claims.workspaceId } : {}),
  };
}
