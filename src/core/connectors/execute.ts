import { performance } from 'node:perf_hooks';
import type { DownloadResult } from '../../connectors/runtime/download.ts';
import type { ConnectorMetadata } from '../../connectors/runtime/executor.ts';
import { applyFieldSelection } from '../../connectors/runtime/fields.ts';
import { liftLimit } from '../../connectors/runtime/limit.ts';
import { assertHeaderParam, liftExecuteAliases } from '../../connectors/runtime/params.ts';
import { type Payload, parseRecords, recordsPayload } from '../../connectors/runtime/payload.ts';
import { DomainError } from '../../errors.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { assertWorkspaceAccess } from '../context.ts';
import { cachedReads } from '../read-cache.ts';
import { searchContextStore } from './context-store.ts';
import { assertCredentialsUsable, openConnectorCall } from './credential-store.ts';
import { DESCRIBE_ACTION, describeForExecute } from './describe.ts';
import { assertPossibleConnectorId, connectorNotFound, definitionOf } from './lookup.ts';
import { SEARCH_ACTIONS } from './search-answer.ts';

export interface ExecuteInput {
  entity: string;
  action: string;
  params?: Record<string, unknown> | undefined;
  select_fields?: string[] | null | undefined;
  exclude_fields?: string[] | null | undefined;
  /** HTTP Range of the execute request, passed to the provider by `download`. */
  range?: string | undefined;
  /** Settles once the reply is written: until then the upstream answer stays counted as held in memory. */
  holdUntil?: Promise<unknown> | undefined;
}

/**
 * The JSON answer of an execute: its `result` (records, or JSON bytes to write on as they are: payload.ts) and
 * the metadata around it. The reply's envelope is the transport's to build (src/http/execute-reply.ts).
 */
export interface JsonAnswer {
  kind: 'json';
  payload: Payload;
  connector_metadata: ConnectorMetadata;
  execution_metadata: { connector_instance_id: string; execution_time_ms: number };
}

/** A `download` answers with the file itself, streamed, rather than a JSON answer. */
export interface FileAnswer {
  kind: 'file';
  file: DownloadResult;
}

export type ExecuteAnswer = JsonAnswer | FileAnswer;

export async function executeConnector(
  deps: CoreDeps,
  ctx: RequestContext,
  id: string,
  input: ExecuteInput,
): Promise<ExecuteAnswer> {
  const started = performance.now();
  assertPossibleConnectorId(id);
  const reads = cachedReads(deps.store);
  // Kept in memory nearly always: then no turn of the event loop.
  const found =
    reads.connectorWithCredentialsKept(ctx.organizationId, id) ??
    (await reads.connectorWithCredentials(ctx.organizationId, id));
  if (!found) throw connectorNotFound(id);
  const { connector, credentials: stored } = found;
  assertWorkspaceAccess(ctx, connector.workspace_id);
  if (connector.workspace_status !== 'active') {
    throw new DomainError(
      'WORKSPACE_INACTIVE',
      `Workspace '${connector.workspace_name}' is inactive; reactivate it (PUT /api/v1/workspaces/${connector.workspace_id} {"status":"active"}) to execute its connectors.`,
    );
  }
  const def = definitionOf(deps, connector);
  // Search reads the index only: it needs neither the provider nor the credentials.
  if (SEARCH_ACTIONS.has(input.action)) {
    return searchContextStore(deps, ctx, connector, def, {
      entity: input.entity,
      action: input.action,
      params: input.params ?? {},
      select_fields: input.select_fields,
      exclude_fields: input.exclude_fields,
    });
  }
  // The definition answers it: no provider call, no credentials, so it works whatever their state.
  if (input.action === DESCRIBE_ACTION) {
    return {
      kind: 'json',
      payload: recordsPayload(describeForExecute(id, def, input.entity)),
      connector_metadata: { has_next_page: false, end_cursor: null },
      execution_metadata: {
        connector_instance_id: `source_id:${id}`,
        execution_time_ms: Math.round(performance.now() - started),
      },
    };
  }
  // Refused OAuth2 grants stay refused: answer at once instead of asking the provider again.
  assertCredentialsUsable(connector);
  const lifted = liftExecuteAliases(def, input.params ?? {}, input.select_fields);
  let params = lifted.params;
  const selectFields = lifted.selectFields;
  let range = input.range;
  if (input.action === 'download' && typeof params.range_header === 'string') {
    // The reference SDK's name for the Range header; ces also takes the real header.
    const { range_header, ...rest } = params;
    assertHeaderParam('range_header', range_header);
    range ??= range_header as string;
    params = rest;
  }
  const limited = liftLimit(def, input.entity, input.action, params);
  params = limited.params;
  // Validation happens before the credentials are even decrypted: a bad call never reaches the provider.
  params = deps.runtime.validate(def, input.entity, input.action, params, connector.replication_config);

  const trimmed = Boolean(selectFields?.length || input.exclude_fields?.length);
  // One object for the whole call (its fields set once, not spread into a new object at each step).
  const call = Object.assign(openConnectorCall(deps, ctx.organizationId, connector, stored, def), {
    entity: input.entity,
    action: input.action,
    params,
    holdUntil: input.holdUntil,
    // Untrimmed, a list's records are written on as the provider's bytes: the runtime need not build them.
    unparsedRecords: !trimmed,
    recordLimit: limited.limit,
  });
  if (input.action === 'download') {
    return { kind: 'file', file: await deps.runtime.download(call, range) };
  }
  const output = await deps.runtime.execute(call);
  const connector_metadata = output.connector_metadata;
  const execution_metadata = {
    connector_instance_id: `source_id:${id}`,
    execution_time_ms: Math.round(performance.now() - started),
  };
  // Untrimmed, the payload goes on as the runtime gave it: bytes stay bytes for the reply to write.
  const payload = trimmed
    ? recordsPayload(applyFieldSelection(parseRecords(output.payload), selectFields, input.exclude_fields))
    : output.payload;
  return { kind: 'json', payload, connector_metadata, execution_metadata };
}
