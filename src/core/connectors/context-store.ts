/**
 * Context Store verbs: starting and restarting a connector's syncs, dropping its index, the status shown on
 * connector records, /inspect, and the search actions `search` and `context_store_search` (which read the index
 * only, never the live API).
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { applyFieldSelection } from '../../connectors/runtime/fields.ts';
import { recordsPayload } from '../../connectors/runtime/payload.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { definitionLayouts, type EntityLayout } from '../../context-store/layout.ts';
import { checkSearch } from '../../context-store/query.ts';
import { searchOperator } from '../../context-store/query-operators.ts';
import {
  type ConnectorStoreStatus,
  connectorStatus,
  failedEntities,
  searchable,
} from '../../context-store/status.ts';
import { DomainError, invalidField } from '../../errors.ts';
import { openValue, sealValue } from '../../security/sealed.ts';
import type { Connector, EntitySyncState } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow } from '../context.ts';
import { type SearchOutcome, searchOutcome } from '../context-store-observer.ts';
import { defaultTemplate, indexedEntities, type TemplateView } from '../templates/source-templates.ts';
import type { JsonAnswer } from './execute.ts';
import { definitionOf, loadConnector } from './lookup.ts';
import { type SearchMeta, searchResult, searchResultParts } from './search-answer.ts';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const CURSOR_PURPOSE = 'context-store-search.v2';
/** A search cursor is ~50 characters; anything far longer is refused before any crypto work. */
const MAX_CURSOR_LENGTH = 512;

export interface ContextStoreSummary {
  status: ConnectorStoreStatus;
  entity_count: number;
}

/** A connector's Context Store status and records indexed, all entities together; null before any sync. */
export function contextStoreSummary(states: EntitySyncState[] | undefined): ContextStoreSummary | null {
  const status = connectorStatus(states ?? []);
  if (!status) return null;
  return { status, entity_count: (states ?? []).reduce((n, s) => n + s.entity_count, 0) };
}

export type ConnectorView = Connector & {
  context_store: ContextStoreSummary | null;
  /** The source template it was made from (its type's default one when none, or when that was deleted). */
  template: TemplateView;
};

export async function withContextStore(
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  organizationId: string,
  connectors: Connector[],
): Promise<ConnectorView[]> {
  const states = await deps.store.contextStore.statesFor(
    organizationId,
    connectors.map((c) => c.id),
  );
  const templates = connectors.some((c) => c.source_template_id !== null)
    ? new Map((await deps.store.sourceTemplates.list(organizationId)).map((t) => [t.id, t]))
    : new Map();
  return connectors.map((c) => {
    const own = c.source_template_id ? templates.get(c.source_template_id) : undefined;
    const def = deps.registry.byId(c.definition_id);
    const template: TemplateView | undefined =
      own && def ? { ...own, definition: def } : def ? defaultTemplate(def) : undefined;
    if (!template) throw new Error(`connector ${c.id} has an unknown definition ${c.definition_id}`);
    return { ...c, context_store: contextStoreSummary(states.get(c.id)), template };
  });
}

export async function viewOf(
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  connector: Connector,
): Promise<ConnectorView> {
  const [view] = await withContextStore(deps, connector.organization_id, [connector]);
  return view as ConnectorView;
}

/**
 * A new connector: a backfill of every indexed entity (narrowed by its template's whitelist and the entities its
 * creator asked for), due now. Also adds the syncs of entities newly asked for.
 */
export async function startContextStore(
  deps: CoreDeps,
  connector: Connector,
  def: ConnectorDefinition,
  template?: Pick<TemplateView, 'customization'>,
) {
  const entities = indexedEntities(def, template, connector.entities);
  if (entities.length === 0) return;
  await deps.store.contextStore.initConnector(
    connector.organization_id,
    connector.id,
    entities,
    isoNow(deps),
  );
  deps.syncs?.notify();
}

/** New credentials or scope: read everything again (the records stay searchable meanwhile). */
export async function restartContextStore(deps: CoreDeps, connector: Connector) {
  await deps.store.contextStore.restartConnector(connector.organization_id, connector.id, isoNow(deps));
  deps.syncs?.notify();
}

export async function dropContextStore(deps: Pick<CoreDeps, 'store' | 'registry'>, connector: Connector) {
  const def = deps.registry.byId(connector.definition_id);
  await deps.store.contextStore.dropConnector(
    connector.organization_id,
    connector.id,
    def ? definitionLayouts(def) : [],
  );
}

/** GET /connectors/{id}/inspect: the connector's Context Store status and each entity's sync state. */
export async function inspectConnector(deps: CoreDeps, ctx: RequestContext, id: string) {
  const connector = await loadConnector(deps, ctx, id);
  const def = definitionOf(deps, connector);
  const layouts = definitionLayouts(def);
  const states = await deps.store.contextStore.states(ctx.organizationId, id);
  const status = connectorStatus(states);
  const entities = states.map((s) => ({
    entity: s.entity,
    status: s.status,
    ready_for_search: searchable(s),
    entity_count: s.entity_count,
    updated_at: s.updated_at,
    last_error: s.last_error,
    pass: s.pass,
    backfilled_at: s.backfilled_at,
    next_sync_at: s.run_after,
  }));
  return {
    connector_id: connector.id,
    name: connector.name,
    workspace_id: connector.workspace_id,
    organization_id: connector.organization_id,
    source_definition_id: def.id,
    source_definition_name: def.name,
    source_config_template_id: (await viewOf(deps, connector)).template.id,
    // The connector type's skill (agent-readable docs).
    docs_skill_id: `connector-source:${def.id}`,
    context_store: { status, entities },
    // The reference service's readiness block, so its clients read the same fields.
    context_store_readiness: {
      connector_id: connector.id,
      source_definition_id: def.id,
      supported_context_store_entities: layouts.map((l) => ({
        entity: l.entity,
        suggested: l.spec.suggested === true,
      })),
      configured_cache_entities: entities.map((e) => ({
        entity: e.entity,
        status: e.status,
        ready_for_search: e.ready_for_search,
        supported: true,
        entity_count: e.entity_count,
        updated_at: e.updated_at,
      })),
    },
    // The summary says which entities failed and why; their own rows carry the same reason.
    warnings: failedEntities(states).map(
      ({ entity, reason }) => `Entity '${entity}' failed to sync: ${reason}`,
    ),
  };
}

export interface SearchInput {
  entity: string;
  /** `search` or `context_store_search`: which shape `result` takes (search-answer.ts). */
  action: string;
  params: Record<string, unknown>;
  select_fields?: string[] | null | undefined;
  exclude_fields?: string[] | null | undefined;
}

interface SearchParams {
  filter: unknown;
  sort: unknown;
  limit: number;
  cursor: string | undefined;
  fields: string[] | undefined;
}

function parseSearchParams(params: Record<string, unknown>): SearchParams {
  for (const key of Object.keys(params)) {
    if (!['query', 'limit', 'cursor', 'fields'].includes(key)) {
      throw invalidField(
        'INVALID_PARAMS',
        `params.${key}`,
        `Unknown search param '${key}'; search takes query, limit, cursor and fields.`,
      );
    }
  }
  const query = params.query ?? {};
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    throw invalidField('INVALID_QUERY', 'params.query', 'params.query must be an object {filter?, sort?}.');
  }
  for (const key of Object.keys(query)) {
    if (key !== 'filter' && key !== 'sort') {
      throw invalidField(
        'INVALID_QUERY',
        `params.query.${key}`,
        `Unknown query member '${key}'; a query has filter and sort.`,
      );
    }
  }
  const limit = params.limit ?? DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalidField(
      'INVALID_PARAMS',
      'params.limit',
      `params.limit must be an integer from 1 to ${MAX_LIMIT}.`,
    );
  }
  const cursor = params.cursor;
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') {
    throw invalidField(
      'INVALID_PARAMS',
      'params.cursor',
      'params.cursor must be the end_cursor of the previous page.',
    );
  }
  return {
    filter: (query as { filter?: unknown }).filter,
    sort: (query as { sort?: unknown }).sort,
    limit,
    cursor: cursor ?? undefined,
    fields: parseFields(params.fields),
  };
}

/** `fields`: dot paths (`["id", "user.login"]`) or key lists (`[["id"], ["user", "login"]]`), as SDKs send them. */
function parseFields(fields: unknown): string[] | undefined {
  if (fields === undefined || fields === null) return undefined;
  const bad = () =>
    invalidField(
      'INVALID_PARAMS',
      'params.fields',
      'params.fields must be a list of dot paths or of key lists.',
    );
  if (!Array.isArray(fields) || fields.length > 200) throw bad();
  return fields.map((f) => {
    if (typeof f === 'string' && f.length > 0) return f;
    if (Array.isArray(f) && f.length > 0 && f.every((k) => typeof k === 'string' && k.length > 0))
      return f.join('.');
    throw bad();
  });
}

function notReady(status: ConnectorStoreStatus | null, entity: string, state: EntitySyncState | undefined) {
  const why =
    state?.status === 'Failed' && state.last_error
      ? ` It failed to sync: ${state.last_error}`
      : state
        ? ' Its first page is not stored yet.'
        : '';
  return new DomainError(
    'CONTEXT_STORE_NOT_READY',
    `'${entity}' is not searchable yet (the connector's Context Store is ${status ?? 'not set up'}).${why} Use the list or get action meanwhile, and GET /api/v1/integrations/connectors/{id}/inspect to follow its progress: an entity is searchable once its ready_for_search is true.`,
    {
      extra: {
        context_store_status: status,
        entity_status: state?.status ?? null,
        hint: "Use list/get until this entity's ready_for_search is true (inspect).",
      },
    },
  );
}

export async function searchContextStore(
  deps: CoreDeps,
  ctx: RequestContext,
  connector: Connector,
  def: ConnectorDefinition,
  input: SearchInput,
): Promise<JsonAnswer> {
  const started = performance.now();
  const layouts = definitionLayouts(def);
  const layout: EntityLayout | undefined = layouts.find((l) => l.entity === input.entity);
  if (!layout) {
    const known = def.entities.some((e) => e.name === input.entity);
    throw invalidField(
      known ? 'UNKNOWN_ACTION' : 'UNKNOWN_ENTITY',
      'entity',
      `${known ? `Entity '${input.entity}' is not indexed by the Context Store` : `Unknown entity '${input.entity}'`}; searchable entities of ${def.name}: ${layouts.map((l) => l.entity).join(', ') || 'none'}.`,
    );
  }
  const params = parseSearchParams(input.params);
  const states = await deps.store.contextStore.states(ctx.organizationId, connector.id);
  const state = states.find((s) => s.entity === layout.entity);
  if (!searchable(state)) throw notReady(connectorStatus(states), layout.entity, state);

  const observer = deps.contextStoreObserver;
  const searchStarted = performance.now();
  const report = (outcome: SearchOutcome) =>
    observer?.search(searchOperator(params.filter), outcome, (performance.now() - searchStarted) / 1000);
  // Checked first: past this the query is known to be small and shallow enough to serialise (a deeply nested
  // one would overflow JSON.stringify's stack).
  try {
    checkSearch(layout, params);
  } catch (err) {
    report(searchOutcome(err));
    throw err;
  }
  // A cursor continues the query it came from: sealed with a digest of it, the connector and the entity as its
  // binding, so it holds only the offset (and stays short) and reveals none of them.
  const query = createHash('sha256')
    .update(JSON.stringify([params.filter ?? null, params.sort ?? null, params.fields ?? null]))
    .digest('base64url');
  const binding = JSON.stringify([connector.id, layout.entity, query]);
  let offset = 0;
  if (params.cursor) {
    const decoded =
      params.cursor.length <= MAX_CURSOR_LENGTH
        ? (openValue(deps.secrets.cursorKey, CURSOR_PURPOSE, params.cursor, binding) as
            | { o?: unknown }
            | undefined)
        : undefined;
    if (typeof decoded?.o !== 'number' || !Number.isSafeInteger(decoded.o) || decoded.o < 0) {
      throw invalidField(
        'INVALID_CURSOR',
        'params.cursor',
        'This cursor was not issued for this connector, entity and query; repeat the same query with the end_cursor it returned.',
      );
    }
    offset = decoded.o;
  }
  let rows: Array<{ rid: number; data: string }>;
  try {
    rows = await deps.store.contextStore.search(ctx.organizationId, connector.id, layout, {
      filter: params.filter,
      sort: params.sort,
      limit: params.limit + 1,
      offset,
    });
  } catch (err) {
    report(searchOutcome(err));
    throw err;
  }
  report('ok');
  const hasNext = rows.length > params.limit;
  const page = hasNext ? rows.slice(0, params.limit) : rows;
  const endCursor = hasNext
    ? sealValue(deps.secrets.cursorKey, CURSOR_PURPOSE, { o: offset + params.limit }, binding)
    : null;

  const trimmed = Boolean(params.fields || input.select_fields?.length || input.exclude_fields?.length);
  // Whole milliseconds: the reference SDK types took_ms as an integer.
  const tookMs = Math.round(performance.now() - started);
  const meta: SearchMeta = { has_more: hasNext, cursor: endCursor, took_ms: tookMs };
  const connector_metadata = { has_next_page: hasNext, end_cursor: endCursor, took_ms: tookMs };
  const execution_metadata = {
    connector_instance_id: `source_id:${connector.id}`,
    execution_time_ms: tookMs,
  };
  if (!trimmed) {
    // The stored JSON is written into the reply as it is: no parse and re-serialise per record.
    const parts = searchResultParts(
      input.action,
      page.map((r) => r.data),
      meta,
    );
    const source = { provider: 'The Context Store', operation: `${layout.entity}.${input.action}` };
    return {
      kind: 'json',
      payload: { kind: 'bytes', parts, source },
      connector_metadata,
      execution_metadata,
    };
  }
  let records: unknown[] = page.map((r) => JSON.parse(r.data) as unknown);
  if (params.fields) records = applyFieldSelection(records, params.fields, null) as unknown[];
  records = applyFieldSelection(records, input.select_fields, input.exclude_fields) as unknown[];
  const payload = recordsPayload(searchResult(input.action, records, meta));
  return { kind: 'json', payload, connector_metadata, execution_metadata };
}
