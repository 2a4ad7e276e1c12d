import type { DefinitionRegistry } from '../connectors/registry.ts';
import type { ConnectorRuntime } from '../connectors/runtime/executor.ts';
import { DomainError } from '../errors.ts';
import type { TokenService } from '../security/tokens.ts';
import type { Vault } from '../security/vault.ts';
import type { OpenStateCaps, Store } from '../store/port.ts';
import type { ServerSecrets } from './admin/server-secrets.ts';
import type { ContextStoreObserver } from './context-store-observer.ts';
import type { RequestRates } from './request-rates.ts';
import type { TransportErrorDocs } from './skills/static-errors.ts';
import type { TokenAttemptLimiter } from './tokens/attempt-limiter.ts';

/** Count limits per organization; 0 turns one off. */
export interface OrganizationQuotas {
  workspacesPerOrganization: number;
  connectorsPerOrganization: number;
}

/** What every core verb may use. Built once in src/deps.ts. */
export interface CoreDeps {
  store: Store;
  vault: Vault;
  tokens: TokenService;
  secrets: ServerSecrets;
  registry: DefinitionRegistry;
  runtime: ConnectorRuntime;
  now: () => Date;
  /** The Context Store worker of this process, told when a connector's syncs become due. */
  syncs?: { notify(): void };
  quotas: OrganizationQuotas;
  /** Open consent flows one workspace, and one widget token, may hold at once; 0 turns a cap off. */
  openConsents: OpenStateCaps;
  /** Failed client-credential exchanges per client id and per source address (this process's own count). */
  tokenAttempts: TokenAttemptLimiter;
  /**
   * Requests per second per organization and per end user (this process's own count): the HTTP API's
   * authentication takes from it, and so do what one request may fan out to (MCP messages, execute items) and
   * download links.
   */
  requestRates: RequestRates;
  /**
   * The codes the HTTP transport answers with before any verb runs (src/http/errors.ts), for the errors skill:
   * core documents every code on the wire but never imports http, so the composition root hands them over.
   */
  transportErrors: TransportErrorDocs;
  /** Told of every Context Store search (metrics); absent: no one. */
  contextStoreObserver?: ContextStoreObserver | undefined;
}

/** Who is calling, resolved from the bearer token; every tenant-owned read is scoped by it. */
export interface RequestContext {
  organizationId: string;
  applicationId: string;
  kind: 'application' | 'scoped';
  /** Set for scoped tokens: the only workspace the caller may touch. */
  workspaceId?: string;
}

export const isoNow = (deps: Pick<CoreDeps, 'now'>) => deps.now().toISOString();

/** Organization-level administration is for application tokens only. */
export function requireApplicationToken(ctx: RequestContext): void {
  if (ctx.kind !== 'application') {
    throw new DomainError(
      'FORBIDDEN',
      'This operation needs an application token; a workspace-scoped token cannot perform organization-level administration.',
    );
  }
}

export function assertWorkspaceAccess(ctx: RequestContext, workspaceId: string): void {
  if (ctx.workspaceId !== undefined && ctx.workspaceId !== workspaceId) {
    throw new DomainError('WORKSPACE_SCOPE_VIOLATION', 'This token is scoped to another workspace.');
  }
}
