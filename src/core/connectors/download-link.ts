/**
 * Download links: a signed, short-lived URL that streams one `download` of a connector, for clients that can
 * follow a link but should not hold a bearer token or receive the bytes in their own channel (an MCP client
 * gets a resource link; the bytes are streamed by the HTTP API). The link carries who asked (organization,
 * application, workspace scope) and what (connector, entity, params); it is checked like a request with that
 * token would be: the application must still be active, the connector in reach.
 */

import { DomainError } from '../../errors.ts';
import { signValue, verifyValue } from '../../security/signed.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { definitionOf, loadConnector } from './lookup.ts';

const PURPOSE = 'download-link';
/** Long enough for a client to follow it, short enough that a leaked link soon stops working. */
export const DOWNLOAD_LINK_TTL_MS = 5 * 60_000;

interface LinkBody {
  o: string;
  a: string;
  w?: string;
  c: string;
  e: string;
  p: Record<string, unknown>;
  x: number;
}

export async function createDownloadLink(
  deps: Pick<CoreDeps, 'store' | 'registry' | 'runtime' | 'secrets' | 'now'>,
  ctx: RequestContext,
  connectorId: string,
  input: { entity: string; params: Record<string, unknown> },
): Promise<{ path: string; expires_at: string }> {
  const connector = await loadConnector(deps, ctx, connectorId);
  // A link for a call that could never work is refused now, not when it is followed.
  deps.runtime.validate(
    definitionOf(deps, connector),
    input.entity,
    'download',
    input.params,
    connector.replication_config,
  );
  const expires = deps.now().getTime() + DOWNLOAD_LINK_TTL_MS;
  const body: LinkBody = {
    o: ctx.organizationId,
    a: ctx.applicationId,
    ...(ctx.workspaceId ? { w: ctx.workspaceId } : {}),
    c: connectorId,
    e: input.entity,
    p: input.params,
    x: expires,
  };
  return {
    path: `/api/v1/downloads?link=${signValue(deps.secrets.cursorKey, PURPOSE, body)}`,
    expires_at: new Date(expires).toISOString(),
  };
}

/**
 * The request a link stands for; UNAUTHENTICATED when it is forged, expired, or its application revoked.
 * Following it counts against its organization's request rate, as the request with a token would.
 */
export async function openDownloadLink(
  deps: Pick<CoreDeps, 'store' | 'secrets' | 'now' | 'requestRates'>,
  link: string,
): Promise<{ ctx: RequestContext; connectorId: string; entity: string; params: Record<string, unknown> }> {
  const body = verifyValue(deps.secrets.cursorKey, PURPOSE, link) as Partial<LinkBody> | undefined;
  if (
    !body ||
    typeof body.o !== 'string' ||
    typeof body.a !== 'string' ||
    typeof body.c !== 'string' ||
    typeof body.e !== 'string' ||
    typeof body.x !== 'number' ||
    typeof body.p !== 'object' ||
    body.p === null
  ) {
    throw new DomainError('UNAUTHENTICATED', 'This download link is not valid.');
  }
  if (body.x <= deps.now().getTime())
    throw new DomainError('UNAUTHENTICATED', 'This download link has expired; ask for a new one.');
  if (!(await deps.store.applications.isActiveInOrganization(body.a, body.o)))
    throw new DomainError('UNAUTHENTICATED', 'The application behind this download link has been revoked.');
  const refused = deps.requestRates.organization(body.o);
  if (refused) throw refused;
  return {
    ctx: {
      organizationId: body.o,
      applicationId: body.a,
      kind: body.w ? 'scoped' : 'application',
      ...(body.w ? { workspaceId: body.w } : {}),
    },
    connectorId: body.c,
    entity: body.e,
    params: body.p,
  };
}
