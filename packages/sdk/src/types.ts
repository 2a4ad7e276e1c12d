// Names for the request and answer shapes of the generated OpenAPI types (src/generated/openapi.ts).
import type { paths } from './generated/openapi.ts';

type Op<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
/** The JSON body an operation answers with on success (200, or 202 for an accepted deletion). */
export type Reply<P extends keyof paths, M extends keyof paths[P]> = Op<P, M> extends {
  responses: { 200: { content: { 'application/json': infer R } } };
}
  ? R
  : Op<P, M> extends { responses: { 202: { content: { 'application/json': infer R } } } }
    ? R
    : never;
/** The JSON body an operation takes. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = Op<P, M> extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
/** The query parameters an operation takes. */
export type Query<P extends keyof paths, M extends keyof paths[P]> = Op<P, M> extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

type Connectors = '/api/v1/integrations/connectors';
type ConnectorPath = '/api/v1/integrations/connectors/{id}';

export type TokenReply = Reply<'/api/v1/account/applications/token', 'post'>;
export type ScopedTokenReply = Reply<'/api/v1/account/applications/scoped-token', 'post'>;

export type Connector = Reply<ConnectorPath, 'get'>;
export type ConnectorSummary = Reply<Connectors, 'get'>['data'][number];
export type ConnectorCreate = Body<Connectors, 'post'>;
export type ConnectorUpdate = Body<ConnectorPath, 'put'>;
export type ConnectorListQuery = Query<Connectors, 'get'>;
export type ConnectorDeleted = Reply<ConnectorPath, 'delete'>;
export type ConnectorCheckSettings = Body<'/api/v1/integrations/connectors/{id}/check', 'post'>;
export type ConnectorInspection = Reply<'/api/v1/integrations/connectors/{id}/inspect', 'get'>;
/**
 * A check's outcome. The OpenAPI document leaves this body open, so its members are written out here (README:
 * `{id, status: succeeded|failed, error_message, failure_reason}`); a refused credential is a `failed` check.
 */
export type ConnectorCheck = Reply<'/api/v1/integrations/connectors/check', 'post'> & {
  status: 'succeeded' | 'failed';
  error_message?: string | null;
  failure_reason?: string | null;
};

export type DefinitionSummary = Reply<
  '/api/v1/integrations/definitions/sources',
  'get'
>['definitions'][number];
/** Credential options, the replication_config schema, entities, actions and their params (an open object). */
export type Definition = Reply<'/api/v1/integrations/definitions/sources/{id}', 'get'>;

export type Workspace = Reply<'/api/v1/workspaces', 'get'>['data'][number];
export type WorkspaceListQuery = Query<'/api/v1/workspaces', 'get'>;
export type WorkspaceUpdate = Body<'/api/v1/workspaces/{workspace_id}', 'put'>;

type ExecuteBody = Body<'/api/v1/integrations/connectors/{id}/execute', 'post'>;
type ExecuteReply = Reply<'/api/v1/integrations/connectors/{id}/execute', 'post'>;
/** What `execute` takes: an entity, an action and its params (`params.cursor` for the next page). */
export type ExecuteRequest = Omit<ExecuteBody, 'params'> & { params?: Record<string, unknown> | null };
/**
 * One answer of `execute`; `T` is the type of `result`: a record for `get`, an array for `list` and `search`, a
 * `ContextStoreSearchPage` for `context_store_search`. `took_ms` (whole milliseconds) comes with searches.
 */
export type ExecuteResult<T = unknown> = Omit<ExecuteReply, 'result' | 'connector_metadata'> & {
  result: T;
  connector_metadata: ExecuteReply['connector_metadata'] & { took_ms?: number };
};

/** `meta` of a `context_store_search` page. */
export interface ContextStoreSearchMeta {
  has_more: boolean;
  /** The next page's `params.cursor` (the same value as `connector_metadata.end_cursor`); null on the last. */
  cursor: string | null;
  /** Whole milliseconds. */
  took_ms: number;
}
/**
 * `result` of action `context_store_search` (the reference service's shape), e.g.
 * `ces.execute<ContextStoreSearchPage<Issue>>(id, {entity: 'issues', action: 'context_store_search', params})`.
 * Action `search` runs the same query and answers the records as an array instead (`ces.search`, `pages`).
 */
export interface ContextStoreSearchPage<T = Record<string, unknown>> {
  data: T[];
  meta: ContextStoreSearchMeta;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}
