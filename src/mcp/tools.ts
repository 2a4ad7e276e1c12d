/**
 * The MCP server's tools: each a JSON Schema input and a handler calling the same core verbs as the HTTP routes,
 * with the caller's context (an application token's organization, or a scoped token's one workspace).
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { type Static, type TSchema, Type } from 'typebox';
import { parseRecords } from '../connectors/runtime/payload.ts';
import { connectLink } from '../core/connect/widget.ts';
import { inspectConnector } from '../core/connectors/context-store.ts';
import { describeDefinition } from '../core/connectors/describe.ts';
import { createDownloadLink } from '../core/connectors/download-link.ts';
import { executeConnector } from '../core/connectors/execute.ts';
import { definitionOf, loadConnector, resolveDefinition } from '../core/connectors/lookup.ts';
import { listConnectors } from '../core/connectors/read.ts';
import { answersSearchPage, type SearchPage } from '../core/connectors/search-answer.ts';
import type { CoreDeps, RequestContext } from '../core/context.ts';
import { DomainError } from '../errors.ts';
import { capAnswer, capSearchPage, DEFAULT_MAX_CHARS } from './cap.ts';

export interface ToolContext {
  deps: CoreDeps;
  ctx: RequestContext;
  /** How clients reach this server: links the tools hand out (downloads, the connect page) start with it. */
  publicBase: string;
  /** Told of unexpected failures (logged by the transport); the caller sees only INTERNAL_ERROR. */
  onInternalError?: (err: unknown) => void;
  /**
   * Counts one unit of work against the caller's request rate before it starts (each tool or resource request,
   * each execute item after a call's first): undefined to go ahead, else the RATE_LIMITED to answer instead.
   * The transport decides what its own request already paid for.
   */
  take: () => DomainError | undefined;
}

export interface Tool<S extends TSchema = TSchema> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  readOnly: boolean;
  run(input: Static<S>, tc: ToolContext): Promise<ToolAnswer>;
}

/** What a tool answers: JSON for the model, and resource links where bytes live elsewhere. */
export interface ToolAnswer {
  json: unknown;
  links?: Array<{ uri: string; name: string; description: string; mimeType?: string }>;
}

/** Keeps each tool's input type tied to its schema. */
const defineTool = <S extends TSchema>(tool: Tool<S>): Tool<S> => tool;

const Id = Type.String({ format: 'uuid', description: 'A connector id (list_connectors answers them).' });
const FieldList = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 200 });
const Params = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'The action params, as describe_connector lists them; page size: params.limit on any list; paging: params.cursor = end_cursor.',
});
const MaxChars = Type.Integer({
  minimum: 1000,
  maximum: 500_000,
  description: `Largest answer per item, in characters of JSON (default ${DEFAULT_MAX_CHARS}); longer answers are cut to whole records and say so.`,
});

const listConnectorsTool = defineTool({
  name: 'list_connectors',
  title: 'List connectors',
  description: 'The connectors (stored, connected accounts) the caller can use, with their ids and types.',
  readOnly: true,
  inputSchema: Type.Object(
    { workspace_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
    { additionalProperties: false },
  ),
  async run(input, { deps, ctx }) {
    const rows = await listConnectors(deps, ctx, { workspace_name: input.workspace_name });
    return {
      json: rows.map((c) => ({
        connector_id: c.id,
        name: c.name,
        connector_type: c.connector_type,
        workspace_name: c.workspace_name,
        credentials_status: c.credentials_status,
      })),
    };
  },
});

const listTypesTool = defineTool({
  name: 'list_connector_types',
  title: 'Search connector types',
  description:
    'The catalog of connector types ces can connect (GitHub, Zendesk, …), optionally searched by name.', // provider-names: prose
  readOnly: true,
  inputSchema: Type.Object(
    { query: Type.Optional(Type.String({ maxLength: 100 })) },
    { additionalProperties: false },
  ),
  async run(input, { deps }) {
    const defs = input.query ? deps.registry.searchByName(input.query) : deps.registry.all();
    return {
      json: defs.map((d) => ({
        connector_type: d.slug,
        name: d.name,
        definition_id: d.id,
        entities: d.entities.map((e) => e.name),
        credential_options: d.credential_options.map((o) => o.title),
      })),
    };
  },
});

const describeTool = defineTool({
  name: 'describe_connector',
  title: 'Describe a connector',
  description:
    'Entities, actions and their params of a connector (by id) or connector type, which entities are searchable (Context Store) on which fields, and the search operators.',
  readOnly: true,
  inputSchema: Type.Object(
    {
      connector_id: Type.Optional(Id),
      connector_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    },
    { additionalProperties: false },
  ),
  async run(input, { deps, ctx }) {
    if ((input.connector_id === undefined) === (input.connector_type === undefined))
      throw new DomainError('VALIDATION_ERROR', 'Give exactly one of connector_id and connector_type.');
    if (input.connector_id !== undefined) {
      const connector = await loadConnector(deps, ctx, input.connector_id);
      return { json: { connector_id: connector.id, ...describeDefinition(definitionOf(deps, connector)) } };
    }
    return { json: describeDefinition(resolveDefinition(deps, { connector_type: input.connector_type })) };
  },
});

const ExecuteItem = Type.Object(
  {
    connector_id: Id,
    entity: Type.String({ minLength: 1, maxLength: 100 }),
    action: Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'list, get, create, update, api_search, search, context_store_search…',
    }),
    params: Type.Optional(Params),
    select_fields: Type.Optional(FieldList),
    exclude_fields: Type.Optional(FieldList),
  },
  { additionalProperties: false },
);
const READS = new Set(['list', 'get', 'api_search', 'search', 'context_store_search']);

async function runItem(tc: ToolContext, item: Static<typeof ExecuteItem>, maxChars: number) {
  const where = { connector_id: item.connector_id, entity: item.entity, action: item.action };
  try {
    if (item.action === 'download')
      throw new DomainError('VALIDATION_ERROR', 'Downloads are links: use the download tool.');
    if (READS.has(item.action) && item.select_fields === undefined && item.exclude_fields === undefined) {
      throw new DomainError(
        'VALIDATION_ERROR',
        'Reads need select_fields or exclude_fields (exclude_fields: [] for whole records), so answers fit a context window.',
      );
    }
    const out = await executeConnector(tc.deps, tc.ctx, item.connector_id, {
      entity: item.entity,
      action: item.action,
      params: item.params,
      select_fields: item.select_fields,
      exclude_fields: item.exclude_fields,
    });
    if (out.kind === 'file') throw new Error('download reached execute');
    // A tool answer is cut to whole records, so they are built here, from the bytes if the answer carried only
    // bytes (UPSTREAM_BAD_RESPONSE if they are not JSON).
    const result = parseRecords(out.payload);
    // The cap is the whole item's: what surrounds the result counts against it too.
    const around = JSON.stringify({
      ...where,
      status: 'success',
      connector_metadata: out.connector_metadata,
    }).length;
    const room = Math.max(0, maxChars - around);
    return {
      ...where,
      status: 'success',
      ...(answersSearchPage(item.action)
        ? capSearchPage(result as SearchPage, room, maxChars)
        : capAnswer(result, room, maxChars)),
      connector_metadata: out.connector_metadata,
    };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { ...where, status: 'error', error: errorOf(err) };
  }
}

/** A tool's or an item's error: the HTTP error body's members that mean something outside HTTP. */
export function errorOf(err: DomainError) {
  return {
    code: err.code,
    message: err.message,
    ...(err.errors.length > 0 ? { errors: err.errors } : {}),
    ...(err.retryAfter !== undefined ? { retry_after: Math.max(0, Math.ceil(err.retryAfter)) } : {}),
  };
}

const executeTool = defineTool({
  name: 'execute',
  title: 'Execute connector actions',
  description:
    'Runs a batch of entity/action calls against live APIs (search and context_store_search: the Context Store), concurrently. Each read needs select_fields (dotted paths to keep) or exclude_fields. Each answer is capped at max_chars_per_item; a cut answer keeps whole records, says so and how to page. Page on with params.cursor = connector_metadata.end_cursor. result is the records as an array for list, api_search and search, and {data: [records], meta: {has_more, cursor, took_ms}} for context_store_search (meta.cursor is the same cursor). Each item counts as one request against the rate limit: an item over it answers RATE_LIMITED with retry_after (seconds).',
  readOnly: false,
  inputSchema: Type.Object(
    {
      items: Type.Array(ExecuteItem, { minItems: 1, maxItems: 20 }),
      max_chars_per_item: Type.Optional(MaxChars),
    },
    { additionalProperties: false },
  ),
  async run(input, tc) {
    const max = input.max_chars_per_item ?? DEFAULT_MAX_CHARS;
    // Each item is a call of its own, as a POST of the HTTP execute route is: the tool call paid for the first,
    // each further one is counted before it starts (synchronously, in order), and one over the rate answers
    // RATE_LIMITED in its place without calling the provider.
    const results = input.items.map((item, i) => {
      const refused = i === 0 ? undefined : tc.take();
      if (!refused) return runItem(tc, item, max);
      const where = { connector_id: item.connector_id, entity: item.entity, action: item.action };
      return { ...where, status: 'error', error: errorOf(refused) };
    });
    return { json: { results: await Promise.all(results) } };
  },
});

const searchTool = defineTool({
  name: 'search',
  title: 'Search the Context Store',
  description:
    "Searches a connector's indexed records (no live API call) with the search DSL: query.filter with operators eq, neq, gt, gte, lt, lte, in, like, fuzzy, keyword, contains, any, and, or, not; query.sort. describe_connector lists searchable entities and fields.",
  readOnly: true,
  inputSchema: Type.Object(
    {
      connector_id: Id,
      entity: Type.String({ minLength: 1, maxLength: 100 }),
      query: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: '{filter?, sort?}' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      cursor: Type.Optional(Type.String({ maxLength: 2000 })),
      select_fields: Type.Optional(FieldList),
      max_chars: Type.Optional(MaxChars),
    },
    { additionalProperties: false },
  ),
  async run(input, tc) {
    const params: Record<string, unknown> = { query: input.query ?? {} };
    if (input.limit !== undefined) params.limit = input.limit;
    if (input.cursor !== undefined) params.cursor = input.cursor;
    const out = await executeConnector(tc.deps, tc.ctx, input.connector_id, {
      entity: input.entity,
      action: 'search',
      params,
      select_fields: input.select_fields,
    });
    if (out.kind === 'file') throw new Error('download reached search');
    const max = input.max_chars ?? DEFAULT_MAX_CHARS;
    const around = JSON.stringify({ connector_metadata: out.connector_metadata }).length;
    return {
      json: {
        ...capAnswer(parseRecords(out.payload), Math.max(0, max - around), max),
        connector_metadata: out.connector_metadata,
      },
    };
  },
});

const inspectTool = defineTool({
  name: 'inspect',
  title: 'Inspect a connector',
  description:
    "A connector's Context Store state per entity: status, ready_for_search, record counts, last errors.",
  readOnly: true,
  inputSchema: Type.Object({ connector_id: Id }, { additionalProperties: false }),
  async run(input, { deps, ctx }) {
    return { json: await inspectConnector(deps, ctx, input.connector_id) };
  },
});

const downloadTool = defineTool({
  name: 'download',
  title: 'Download a file',
  description:
    'A link to a file of a connector (an attachment, a recording, an archive): the answer is a resource link valid 5 minutes; the bytes are streamed by ces over HTTP when the link is followed.',
  readOnly: true,
  inputSchema: Type.Object(
    {
      connector_id: Id,
      entity: Type.String({ minLength: 1, maxLength: 100 }),
      params: Type.Optional(Params),
    },
    { additionalProperties: false },
  ),
  async run(input, tc) {
    const link = await createDownloadLink(tc.deps, tc.ctx, input.connector_id, {
      entity: input.entity,
      params: input.params ?? {},
    });
    const uri = `${tc.publicBase}${link.path}`;
    return {
      json: { download_url: uri, expires_at: link.expires_at },
      links: [{ uri, name: `${input.entity} file`, description: `Expires at ${link.expires_at}.` }],
    };
  },
});

const connectTool = defineTool({
  name: 'connect',
  title: 'Connect an account',
  description:
    'Never ask the user for credentials in chat: this answers a link to the connect page where the user connects an account of the given connector type themselves (a form or the provider’s consent). Also lists the credential fields the page asks for.',
  readOnly: false,
  inputSchema: Type.Object(
    {
      connector_type: Type.String({ minLength: 1, maxLength: 100 }),
      workspace_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    },
    { additionalProperties: false },
  ),
  async run(input, tc) {
    const link = await connectLink(tc.deps, tc.ctx, input, tc.publicBase);
    const note = link.enabled
      ? 'Give the user connect_url; it works for 15 minutes. Once they are done, list_connectors shows the new connector.'
      : `${link.connector_type} is not enabled for end users in this organization: an administrator creates a source template for it (POST /api/v1/integrations/templates/sources). Meanwhile an application can create the connector through the API (POST /api/v1/integrations/connectors) with the credential fields listed.`;
    return {
      json: { ...link, note },
      ...(link.connect_url
        ? {
            links: [
              { uri: link.connect_url, name: 'Connect page', description: note, mimeType: 'text/html' },
            ],
          }
        : {}),
    };
  },
});

export const TOOLS: Tool[] = [
  listConnectorsTool,
  listTypesTool,
  describeTool,
  executeTool,
  searchTool,
  inspectTool,
  downloadTool,
  connectTool,
] as unknown as Tool[];

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
addFormats.default(ajv);
const validators = new Map(TOOLS.map((t) => [t.name, ajv.compile(t.inputSchema as object)]));

/** Checks a tool's arguments against its schema: VALIDATION_ERROR naming each bad member. */
export function validateInput(tool: Tool, args: unknown): void {
  const check = validators.get(tool.name);
  if (!check || check(args ?? {})) return;
  const errors = (check.errors ?? []).slice(0, 10).map((e) => ({
    field: e.instancePath.replace(/^\//, '').replaceAll('/', '.') || null,
    message: e.message ?? 'is invalid',
    error_code: e.keyword,
    details: null,
  }));
  throw new DomainError('VALIDATION_ERROR', `Invalid arguments for ${tool.name}.`, { errors });
}
