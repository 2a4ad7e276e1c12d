/** The definition schema of an entity's actions: params, the request, paging, downloads (see schema.ts). */
import Type from 'typebox';
import { HOOK_POINT_NAMES } from './hooks/types.ts';
import { DPath, Format, Scalar, ScalarType, StringMap } from './schema-parts.ts';
import { RecordFieldsSchema } from './schema-records.ts';

/** One literal schema per value, as a tuple: over a plain array of literals, `Type.Static` gives `never`. */
type LiteralTuple<T extends readonly string[]> = { -readonly [I in keyof T]: Type.TLiteral<T[I] & string> };

/** An array's items: scalars, or JSON objects (any members; only in a body, e.g. Stripe's `line_items`). */
const ArrayItems = Type.Object(
  {
    type: Type.Union([...ScalarType.anyOf, Type.Literal('object')]),
    enum: Type.Optional(Type.Array(Scalar, { minItems: 1 })),
  },
  { additionalProperties: false },
);
const ParamType = Type.Union([
  Type.Literal('string'),
  Type.Literal('integer'),
  Type.Literal('number'),
  Type.Literal('boolean'),
  Type.Literal('array'),
  Type.Literal('object'),
]);

/** One member of an `object` param (one level deep; a member of type `object` accepts any JSON object). */
export const ObjectPropertySchema = Type.Object(
  {
    type: ParamType,
    description: Type.String({ minLength: 1 }),
    required: Type.Optional(Type.Boolean()),
    enum: Type.Optional(Type.Array(Scalar, { minItems: 1 })),
    format: Type.Optional(Format),
    items: Type.Optional(ArrayItems),
  },
  { additionalProperties: false },
);

export const ParamSchema = Type.Object(
  {
    /** `object` params are JSON objects sent as one body member (e.g. a search `filter`). */
    type: ParamType,
    description: Type.String({ minLength: 1 }),
    required: Type.Optional(Type.Boolean()),
    enum: Type.Optional(Type.Array(Scalar, { minItems: 1 })),
    /** The provider's default, shown to clients. ces does not send it: leaving a param out keeps the provider's own default. */
    default: Type.Optional(Type.Unknown()),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    min_length: Type.Optional(Type.Integer({ minimum: 0 })),
    max_length: Type.Optional(Type.Integer({ minimum: 1 })),
    pattern: Type.Optional(Type.String()),
    format: Type.Optional(Format),
    items: Type.Optional(ArrayItems),
    /** `object` only: the members a client may send (others are refused). Without it any JSON object passes. */
    properties: Type.Optional(Type.Record(Type.String(), ObjectPropertySchema)),
    /** Where the value goes. Default: `path` when the name is a `{placeholder}` of the path, else `query` (GET/DELETE) or `body`. */
    in: Type.Optional(
      Type.Union([Type.Literal('path'), Type.Literal('query'), Type.Literal('header'), Type.Literal('body')]),
    ),
    /** The provider's name for this param when it differs from ours (query key, header name or body key). */
    api_name: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * Other names a client may send this param under (the hosted catalog's names beside ours). Giving it under two
     * names is an error; the request always uses `api_name` (or the param's own name).
     */
    aliases: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    /**
     * The value sent for each value a client may give, when the provider names them otherwise: keys are the
     * client's values (for an array, its distinct items sorted and joined with commas, so `[CLOSED, OPEN]` is
     * `CLOSED,OPEN`; a single value given for an array is taken as a one-item array). A value without a key
     * is refused. For the hosted catalog's GraphQL-style `states: [OPEN]` beside a REST API's `state=open`.
     */
    value_map: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Scalar, { minProperties: 1 })),
    /** How an array goes into a query string: `comma` (a=x,y) or `repeat` (a=x&a=y). */
    style: Type.Optional(Type.Union([Type.Literal('comma'), Type.Literal('repeat')])),
    /** ces sends `default` when the client leaves this param out (and gives none of `conflicts_with`). */
    send_default: Type.Optional(Type.Boolean()),
    /** Params that can't be combined with this one (the provider's mutually exclusive modes, e.g. paging styles). */
    conflicts_with: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
  },
  { additionalProperties: false },
);

export const RequestSchema = Type.Object(
  {
    method: Type.Union([
      Type.Literal('GET'),
      Type.Literal('POST'),
      Type.Literal('PUT'),
      Type.Literal('PATCH'),
      Type.Literal('DELETE'),
    ]),
    /** Appended to the base URL; `{name}` placeholders are filled from path params, each URL-encoded as one segment. */
    path: Type.String({ pattern: '^/' }),
    /**
     * Query parameters sent with every request of this action: constants, or templates with `{param}`
     * placeholders; an array is parts sent joined by spaces, a part naming an absent param left out (a query
     * language's clauses: `cql: ['type = page', 'and lastmodified >= "{since}"', 'order by lastmodified']`).
     */
    query: Type.Optional(
      Type.Record(
        Type.String({ minLength: 1 }),
        Type.Union([Type.String(), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })]),
      ),
    ),
    headers: Type.Optional(StringMap),
    /** May a failed attempt be sent again? Default: true for GET, PUT and DELETE; set it for a read-only POST search. */
    idempotent: Type.Optional(Type.Boolean()),
    /**
     * The provider makes a write safe to repeat when it carries a key in this header (Stripe's
     * `Idempotency-Key`): ces sends a fresh random key per execute, the same on each retry, so the request
     * is retried like an idempotent one. A client's own value for the header (a header param) wins.
     */
    idempotency_key_header: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" })),
    /**
     * The body's shape, as a JSON template: constants, nested objects and arrays, and strings with `{param}`
     * placeholders. A string that is exactly one placeholder takes the param's value as it is (a number, an
     * array, an object); inside longer text it is written as text. A member or array element naming a param
     * the client left out is dropped (and an object or array that loses all its content with it). Body params
     * the template does not name are added as top-level members, as without a template.
     */
    body: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Unknown())),
    /**
     * How the body is encoded: `json` (default) or `form` (`application/x-www-form-urlencoded`, nested members
     * and arrays written with brackets: `metadata[plan]=pro`, `items[0][price]=p_1`, as Stripe takes them).
     */
    body_format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('form'), Type.Literal('multipart_related')]),
    ),
    /**
     * With `body_format: multipart_related` (RFC 2387; Google's uploads): the body param holding the file's
     * content (`content`, as `encoding` says: base64 or text) and the one holding its media type
     * (`content_type`); the other body members are the first part, JSON metadata, and the content the second.
     */
    media: Type.Optional(
      Type.Object(
        {
          content: Type.String({ minLength: 1 }),
          content_type: Type.String({ minLength: 1 }),
          encoding: Type.Union([Type.Literal('base64'), Type.Literal('text')]),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * A GraphQL operation (POST only): the body is `{query, variables}`. Params placed in the body become
     * variables (named by `api_name` or the param's name), over the `variables` given here: constants, or
     * templates filled from params exactly as a `request.body` template is (a filter object holding a
     * `{param}` only when the client gave it).
     */
    graphql: Type.Optional(
      Type.Object(
        {
          query: Type.String({ minLength: 1, maxLength: 8192 }),
          variables: Type.Optional(
            Type.Record(Type.String({ pattern: '^[_A-Za-z][_0-9A-Za-z]*$' }), Type.Unknown()),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * How the next page is found. Every style produces the complete next request, which ces signs into an opaque
 * `end_cursor`; a client never builds page requests itself.
 */
const PagingStyleSchema = Type.Union([
  Type.Object({ type: Type.Literal('none') }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('link_header'), rel: Type.Optional(Type.String({ minLength: 1 })) },
    { additionalProperties: false },
  ),
  /**
   * A URL in the body. With `cursor_param`, only that query parameter of it is taken and set on the current
   * request (for providers whose next URL drops the other params, or points at another path).
   */
  Type.Object(
    {
      type: Type.Literal('next_url'),
      path: DPath,
      cursor_param: Type.Optional(Type.String({ minLength: 1 })),
    },
    { additionalProperties: false },
  ),
  /** A cursor in a response header, set as `param` of the next request (query, or JSON body member). */
  Type.Object(
    {
      type: Type.Literal('header_cursor'),
      header: Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }),
      param: Type.String({ minLength: 1 }),
      in: Type.Optional(Type.Union([Type.Literal('query'), Type.Literal('body')])),
    },
    { additionalProperties: false },
  ),
  /**
   * Keyset paging: the next page starts after the last record, `param` = that record's `record_key` (default
   * `[id]`); it ends on an empty page, or when `has_more_path` is given and not `true` (Stripe's `has_more`).
   */
  Type.Object(
    {
      type: Type.Literal('keyset'),
      param: Type.String({ minLength: 1 }),
      record_key: Type.Optional(DPath),
      has_more_path: Type.Optional(DPath),
      in: Type.Optional(Type.Union([Type.Literal('query'), Type.Literal('body')])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('body_cursor'),
      cursor_path: DPath,
      param: Type.String({ minLength: 1 }),
      has_more_path: Type.Optional(DPath),
      /** Where `param` goes in the next request: the query string (default) or the JSON body (POST searches). */
      in: Type.Optional(Type.Union([Type.Literal('query'), Type.Literal('body')])),
    },
    { additionalProperties: false },
  ),
  /**
   * GraphQL Relay connections: `page_info` is the path of the connection's `pageInfo` object; while its
   * `hasNextPage` is true, the next page repeats the operation with `variable` set to its `endCursor`.
   */
  Type.Object(
    {
      type: Type.Literal('relay'),
      page_info: DPath,
      variable: Type.String({ pattern: '^[_A-Za-z][_0-9A-Za-z]*$' }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('page_number'),
      param: Type.String({ minLength: 1 }),
      start: Type.Optional(Type.Integer({ minimum: 0 })),
      size_param: Type.Optional(Type.String({ minLength: 1 })),
      page_size: Type.Optional(Type.Integer({ minimum: 1 })),
      /** The number of pages in the body: the page whose number reaches it is the last. */
      total_pages_path: Type.Optional(DPath),
      /** A body member that is `true` on the last page (Jira's `isLast`). */
      last_page_path: Type.Optional(DPath),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('offset'),
      offset_param: Type.String({ minLength: 1 }),
      limit_param: Type.String({ minLength: 1 }),
      page_size: Type.Optional(Type.Integer({ minimum: 1 })),
      /** The number of records in the body: the page that reaches it is the last (Jira's `total`). */
      total_path: Type.Optional(DPath),
      /** A body member that is `true` on the last page (Jira's `isLast`). */
      last_page_path: Type.Optional(DPath),
    },
    { additionalProperties: false },
  ),
]);

/**
 * `first_of` tries several styles in order and follows the first that finds a next page, for providers whose
 * answer format depends on the request (Zendesk: cursor paging with `page[size]`, offset paging with `page`).
 */
export const PaginationSchema = Type.Union([
  ...PagingStyleSchema.anyOf,
  Type.Object(
    {
      type: Type.Literal('first_of'),
      styles: Type.Array(PagingStyleSchema, { minItems: 2, maxItems: 4 }),
    },
    { additionalProperties: false },
  ),
]);

export const ActionSchema = Type.Object(
  {
    description: Type.String({ minLength: 1 }),
    params: Type.Optional(Type.Record(Type.String(), ParamSchema)),
    request: RequestSchema,
    /** Where the records are in the response body; omitted or `[]` means the body itself. */
    record_selector: Type.Optional(DPath),
    /**
     * `list`/`api_search` only: the provider leaves the record list out of an answer with no records (Google's
     * APIs, whose JSON omits empty repeated fields: Gmail's `{resultSizeEstimate: 0}`), which is then an empty
     * page instead of UPSTREAM_BAD_RESPONSE. A member there that is not a list is still refused.
     */
    omits_empty_list: Type.Optional(Type.Boolean()),
    /** Members written on this action's records, instead of the entity's `record_fields` (schema-records.ts). */
    record_fields: Type.Optional(RecordFieldsSchema),
    pagination: Type.Optional(PaginationSchema),
    /**
     * `list`/`api_search` only: the param that sets how many records a page holds, which a client's `limit`
     * sets (the hosted service's page size), or `false` for a provider with a fixed page size (then `limit`
     * only caps the records answered). Inferred when exactly one integer param is named (or sent as)
     * `per_page`, `page_size`, `page[size]`, `limit`, `maxResults`, `first` or `count`, or is the
     * pagination's `size_param`/`limit_param`; a collection action with none or several must say.
     */
    page_size_param: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Literal(false)])),
    /**
     * Other endpoints for the same action, chosen by the params given: the first variant whose `when` params
     * are all given replaces `request` (GitHub's release by `tag` beside the one by id).
     */
    variants: Type.Optional(
      Type.Array(
        Type.Object(
          { when: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }), request: RequestSchema },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 4 },
      ),
    ),
    /** Extra `connector_metadata` members read from the response body (name -> dpath), e.g. `total_count`. */
    meta: Type.Optional(Type.Record(Type.String(), DPath)),
    /**
     * The hook points of the definition's `hooks` module this action uses (src/connectors/hooks/types.ts): one
     * provider's quirk that no second provider shares, checked at load (the module must implement each).
     */
    uses_hooks: Type.Optional(
      Type.Array(
        Type.Union(
          HOOK_POINT_NAMES.map((p) => Type.Literal(p)) as unknown as LiteralTuple<typeof HOOK_POINT_NAMES>,
        ),
        { minItems: 1, uniqueItems: true },
      ),
    ),
    /**
     * `download` only. Without `file_url` the response to `request` is the file (redirects followed). With it,
     * `request` answers JSON metadata and the file is fetched from the URL found there (Zendesk `content_url`,
     * Gong `calls[0].media.audioUrl`), without the connector's credentials unless it is on the API's origin.
     */
    download: Type.Optional(
      Type.Object(
        {
          /**
           * Where the file's URL is; or a list of such paths, the first that holds a value winning (Notion keeps
           * it under the block's type: `[file, file, url]`, `[image, file, url]`, `[pdf, file, url]`...).
           */
          file_url: Type.Optional(Type.Union([DPath, Type.Array(DPath, { minItems: 2, maxItems: 8 })])),
          filename: Type.Optional(DPath),
          content_type: Type.Optional(DPath),
          /**
           * A second step: the URL found at `file_url` answers JSON too, and the file's URL is at this path of
           * that answer (a provider that hands out a short-lived link through a metadata endpoint).
           */
          follow: Type.Optional(
            Type.Object(
              { file_url: DPath, filename: Type.Optional(DPath), content_type: Type.Optional(DPath) },
              { additionalProperties: false },
            ),
          ),
          /**
           * Origins besides the API's that serve the provider's files and need the connector's credentials
           * (Slack's `https://files.slack.com`). Exact https origins; under an upstream override they become
           * the override's origin.
           */
          credentials_to: Type.Optional(
            Type.Array(Type.String({ pattern: '^https://[a-z0-9.-]+(:[0-9]{1,5})?$' }), {
              minItems: 1,
              maxItems: 4,
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The action names the API knows. `download` streams the file instead of answering JSON. */
export const ACTION_NAMES = ['list', 'get', 'create', 'update', 'delete', 'api_search', 'download'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];
/** Actions whose result is an array of records (and may page). */
export const COLLECTION_ACTIONS: readonly ActionName[] = ['list', 'api_search'];
