/**
 * `ces mcp`: the MCP server over stdio, for a desktop agent that starts ces as a subprocess. It opens the same
 * database as the server (CES_DATA_DIR or CES_DATABASE_URL) and authenticates once with an application's client
 * credentials (CES_MCP_CLIENT_ID / CES_MCP_CLIENT_SECRET); with CES_MCP_WORKSPACE it acts as a token scoped to
 * that workspace. Links it hands out (downloads, the connect page) point at CES_PUBLIC_URL, where a ces server
 * must be serving them. stdout carries the protocol only: logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CoreDeps, RequestContext } from '../core/context.ts';
import { authenticate } from '../core/tokens/authenticate.ts';
import { issueApplicationToken } from '../core/tokens/issue-application-token.ts';
import { issueScopedToken } from '../core/tokens/scoped-token.ts';
import { DomainError } from '../errors.ts';
import { createMcpServer } from './server.ts';

export interface StdioOptions {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  organizationId?: string | undefined;
  workspace?: string | undefined;
  publicBase: string;
  onInternalError: (err: unknown) => void;
}

async function login(deps: CoreDeps, opts: StdioOptions): Promise<RequestContext> {
  if (!opts.clientId || !opts.clientSecret) {
    throw new DomainError(
      'UNAUTHENTICATED',
      'ces mcp needs CES_MCP_CLIENT_ID and CES_MCP_CLIENT_SECRET (an application’s client credentials).',
    );
  }
  const app = await issueApplicationToken(deps, {
    client_id: opts.clientId,
    client_secret: opts.clientSecret,
    ...(opts.organizationId ? { organizationId: opts.organizationId } : {}),
  });
  const ctx = await authenticate(deps, `Bearer ${app.access_token}`);
  if (opts.workspace === undefined) return ctx;
  const scoped = await issueScopedToken(deps, ctx, { workspace_name: opts.workspace });
  return authenticate(deps, `Bearer ${scoped.token}`);
}

/** Serves until stdin closes. The context is re-checked per call by the core verbs' own lookups. */
export async function serveStdio(deps: CoreDeps, opts: StdioOptions): Promise<void> {
  const ctx = await login(deps, opts);
  const server = createMcpServer({
    deps,
    ctx,
    publicBase: opts.publicBase,
    onInternalError: opts.onInternalError,
    // No HTTP request paid for anything: every request counts, in this process's own buckets.
    take: () => deps.requestRates.organization(ctx.organizationId),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
