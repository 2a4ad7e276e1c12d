import { performance } from 'node:perf_hooks';
import type { DownloadResult } from '../../connectors/runtime/download.ts';
import { applyFieldSelection } from '../../connectors/runtime/fields.ts';
import { liftLimit } from '../../connectors/runtime/limit.ts';
import { assertHeaderParam, liftExecuteAliases } from '../../connectors/runtime/params.ts';
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

/** A `download` answers with the file itself rather than the JSON envelope. */
export interface DownloadOutput {
  kind: 'download';
  file: DownloadResult;
}

/** The JSON answer of an execute. */
export interface ExecuteAnswer {
  status: 'success';
  result: unknown;
  /**
   * `result`'s JSON bytes, in pieces to be written one after the other, when the reply may carry them as they
   * are (nothing was trimmed from them).
   */
  rawParts?: readonly Buffer[];
  connector_metadata: { has_next_page: boolean; end_cursor: string | null; [k: string]: unknown };
  execution_metadata: { connector_instance_id: string; execution_time_ms: number };
}

export function isDownload(out: object): out is DownloadOutput {
  return (out as { kind?: unknown }).kind === 'download';
}

export async function executeConnector(
  deps: CoreDeps,
  ctx: RequestContext,
  id: string,
  input: ExecuteInput,
): Promise<ExecuteAnswer | DownloadOutput> {
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
      status: 'success',
      result: describeForExecute(id, def, input.entity),
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
    return { kind: 'download', file: await deps.runtime.download(call, range) } satisfies DownloadOutput;
  }
  const output = await deps.runtime.execute(call);
  const connector_metadata = output.connector_metadata;
  const execution_metadata = {
    connector_instance_id: `source_id:${id}`,
    execution_time_ms: Math.round(performance.now() - started),
  };
  // The pieces as they came if there are any (reading `rawResult` would join them).
  const rawParts = trimmed ? undefined : (output.rawParts ?? (output.rawResult && [output.rawResult]));
  if (rawParts) {
    // The provider's bytes for `result`; the records are built only if someone reads `result`.
    return {
      status: 'success',
      connector_metadata,
      execution_metadata,
      rawParts,
      get result(): unknown {
        return output.result;
      },
    };
  }
  return {
    status: 'success',
    connector_metadata,
    execution_metadata,
    result: trimmed ? applyFieldSelection(output.result, selectFields, input.exclude_fields) : output.result,
  };
}
