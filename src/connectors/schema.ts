/**
 * The schema of a connector definition file (`src/connectors/definitions/<slug>.yaml`).
 *
 * Connector types are data: everything provider-specific (URLs, auth placement, paging style, error quirks)
 * is a declared option here, and the runtime only interprets these declarations. `docs/connector-definitions.md`
 * documents every field; keep the two in step.
 */
import Type from 'typebox';

/** Names used as entity, param and credential-field names: they appear in API bodies, so keep them boring. */
const Name = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*$', maxLength: 64 });
/** A path into a JSON document, one key (or array index) per element; `[]` is the document itself. */
const DPath = Type.Array(Type.String({ minLength: 1 }), { maxItems: 16 });
const StringMap = Type.Record(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }), Type.String());

const ScalarType = Type.Union([
  Type.Literal('string'),
  Type.Literal('integer'),
  Type.Literal('number'),
  Type.Literal('boolean'),
]);
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const Format = Type.Union([Type.Literal('date-time'), Type.Literal('date')]);
const ArrayItems = Type.Object(
  { type: ScalarType, enum: Type.Optional(Type.Array(Scalar, { minItems: 1 })) },
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
    /** Constant query parameters sent with every request of this action. */
    query: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String())),
    headers: Type.Optional(StringMap),
    /** May a failed attempt be sent again? Default: true for GET, PUT and DELETE; set it for a read-only POST search. */
    idempotent: Type.Optional(Type.Boolean()),
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
    body_format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('form')])),
    /**
     * A GraphQL operation (POST only): the body is `{query, variables}`. Params placed in the body become
     * variables (named by `api_name` or the param's name), over the constant `variables` given here.
     */
    graphql: Type.Optional(
      Type.Object(
        {
          query: Type.String({ minLength: 1, maxLength: 8192 }),
          variables: Type.Optional(Type.Record(Type.String({ pattern: '^[_A-Za-z][_0-9A-Za-z]*$' }), Scalar)),
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
    pagination: Type.Optional(PaginationSchema),
    /** Extra `connector_metadata` members read from the response body (name -> dpath), e.g. `total_count`. */
    meta: Type.Optional(Type.Record(Type.String(), DPath)),
    /**
     * `list`/`api_search` only: the provider answers a query that matches nothing with 404 (Gong: "No calls
     * found for the specified period"), so a 404 is read as an empty last page instead of UPSTREAM_NOT_FOUND.
     */
    not_found_is_empty: Type.Optional(Type.Boolean()),
    /**
     * `download` only. Without `file_url` the response to `request` is the file (redirects followed). With it,
     * `request` answers JSON metadata and the file is fetched from the URL found there (Zendesk `content_url`,
     * Gong `calls[0].media.audioUrl`), without the connector's credentials unless it is on the API's origin.
     */
    download: Type.Optional(
      Type.Object(
        {
          file_url: Type.Optional(DPath),
          filename: Type.Optional(DPath),
          content_type: Type.Optional(DPath),
          /**
           * With `file_url`: JSON members merged into the metadata request's body over what the params built
           * (objects merged member by member, these values win), for a provider that names file URLs only
           * when asked (Gong's `contentSelector.exposedFields.media: true`).
           */
          body: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Unknown())),
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

/**
 * A field of an entity that the Context Store indexes for `search`: `name` is the record's dot path
 * (`user.login`), which is also the name clients filter and sort on.
 *   string     exact/`in`/`like`/sort, and `fuzzy`/`keyword` (full-text)
 *   text       long prose (bodies, descriptions): `fuzzy`/`keyword`/`like` only, no sort
 *   integer, number, boolean, timestamp (ISO 8601 in the record; compared as instants)
 *   array      `contains` on scalar items (`items: string|integer|number|boolean`), or `any` over object
 *              items whose fields are declared in `properties` (one level).
 */
const FieldPath = Type.String({
  pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*){0,7}$',
  maxLength: 128,
});
const IndexedScalarType = Type.Union([
  Type.Literal('string'),
  Type.Literal('text'),
  Type.Literal('integer'),
  Type.Literal('number'),
  Type.Literal('boolean'),
  Type.Literal('timestamp'),
]);
export const IndexedFieldSchema = Type.Object(
  {
    name: FieldPath,
    type: Type.Union([IndexedScalarType, Type.Literal('array')]),
    description: Type.Optional(Type.String()),
    /** `array` of scalars: their type. */
    items: Type.Optional(
      Type.Union([
        Type.Literal('string'),
        Type.Literal('integer'),
        Type.Literal('number'),
        Type.Literal('boolean'),
      ]),
    ),
    /** `array` of objects: their searchable members (dot paths inside one element). */
    properties: Type.Optional(
      Type.Array(
        Type.Object(
          { name: FieldPath, type: IndexedScalarType, description: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 32 },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * Replication of an entity into the Context Store. The worker pages through the entity's `list` action with
 * `params` (plus the partition's and the incremental bound's), upserting records by `primary_key`.
 */
export const ContextStoreSchema = Type.Object(
  {
    /** Selected by default in clients' entity pickers (informational, like the reference's `suggested`). */
    suggested: Type.Optional(Type.Boolean()),
    fields: Type.Array(IndexedFieldSchema, { minItems: 1, maxItems: 64 }),
    /** Fixed list params of every sync request (largest page size, a stable order, every state...). */
    params: Type.Optional(Type.Record(Name, Scalar)),
    /**
     * One sync per partition: each item of the `replication_config` array `config` is matched against
     * `pattern` (`{owner}/{repo}`), and the placeholders become list params. A partition whose `wildcard`
     * param equals `*` is first expanded by listing `wildcard.entity` with `wildcard.params` (templates over the
     * partition's params) and taking `wildcard.value` (a record dot path) of each record as that param.
     */
    partitions: Type.Optional(
      Type.Object(
        {
          config: Name,
          pattern: Type.String({ minLength: 3, maxLength: 128 }),
          wildcard: Type.Optional(
            Type.Object(
              {
                param: Name,
                entity: Name,
                params: Type.Record(Name, Type.String()),
                value: FieldPath,
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * Incremental refresh: `param` (a list param) receives the largest `field` value seen so far (a
     * timestamp field of the records), so a refresh fetches only what changed. `start_from` names a
     * `replication_config` key (e.g. `start_date`) whose value bounds the first backfill the same way.
     * `format`: how the bound is written into the param (default iso8601). For APIs that list a time window
     * and require both ends (Gong calls): `until` names a list param that receives the time the pass started
     * (the same for every page of the pass, also after a restart), and `earliest` is the lower bound of a
     * pass that has no other (the whole history).
     */
    incremental: Type.Optional(
      Type.Object(
        {
          param: Name,
          field: FieldPath,
          start_from: Type.Optional(Name),
          format: Type.Optional(Type.Union([Type.Literal('iso8601'), Type.Literal('unix_seconds')])),
          until: Type.Optional(Name),
          earliest: Type.Optional(
            Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', maxLength: 20 }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /** The provider answers a list with nothing in it as "not found" (Gong): a sync reads it as an empty page. */
    not_found_is_empty: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const EntitySchema = Type.Object(
  {
    name: Name,
    description: Type.String({ minLength: 1 }),
    primary_key: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    actions: Type.Object(
      {
        list: Type.Optional(ActionSchema),
        get: Type.Optional(ActionSchema),
        create: Type.Optional(ActionSchema),
        update: Type.Optional(ActionSchema),
        delete: Type.Optional(ActionSchema),
        api_search: Type.Optional(ActionSchema),
        download: Type.Optional(ActionSchema),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    /** Declared only for entities the Context Store replicates; such an entity must have a `list` action. */
    context_store: Type.Optional(ContextStoreSchema),
  },
  { additionalProperties: false },
);

const Template = Type.String({ minLength: 1 });
/** One place a credential goes. An option lists one, or several (two headers; a header and a query key). */
export const AuthPlacementSchema = Type.Union([
  Type.Object({ type: Type.Literal('bearer'), token: Template }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('header'), name: Type.String({ minLength: 1 }), value: Template },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal('basic'), username: Template, password: Template },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal('query'), name: Type.String({ minLength: 1 }), value: Template },
    { additionalProperties: false },
  ),
]);
export const AuthSchema = Type.Union([
  AuthPlacementSchema,
  Type.Array(AuthPlacementSchema, { minItems: 1, maxItems: 4 }),
]);

export const CredentialFieldSchema = Type.Object(
  {
    /** Credential values are always strings; the key exists so other types can be added without a format break. */
    type: Type.Literal('string'),
    title: Type.String({ minLength: 1 }),
    description: Type.String({ minLength: 1 }),
    secret: Type.Optional(Type.Boolean()),
    /** Other names clients may use for this field (e.g. the agent SDK's `token`); resolved to the field's own name. */
    aliases: Type.Optional(Type.Array(Name)),
  },
  { additionalProperties: false },
);

/**
 * OAuth 2.0 token refresh (RFC 6749 section 6) for an option whose access token expires. ces refreshes before
 * expiry and on a 401, stores rotated refresh tokens, and marks the connector `needs_reauth` when refused.
 */
export const RefreshSchema = Type.Object(
  {
    /** The token endpoint; `{variables}` must be `base_url_variables` (filled and checked the same way). */
    token_url: Type.String({ minLength: 1 }),
    /**
     * `refresh_token` (default): renew with the stored refresh token. `client_credentials` (RFC 6749 4.4): the
     * client id and secret alone obtain each access token; there is no refresh token.
     */
    grant_type: Type.Optional(
      Type.Union([Type.Literal('refresh_token'), Type.Literal('client_credentials')]),
    ),
    /**
     * Error codes of the token endpoint that, besides RFC 6749's `invalid_grant`, `invalid_client` and
     * `unauthorized_client`, mean only new credentials help (Slack's `invalid_refresh_token`).
     */
    reauth_errors: Type.Optional(
      Type.Array(Type.String({ pattern: '^[\\x21-\\x7e]{1,64}$' }), { minItems: 1 }),
    ),
    /** Sent as `scope` with the token request (space-separated, as RFC 6749 3.3). */
    scope: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    /** `basic` (default): HTTP Basic client_id:client_secret; `body`: both as request params. */
    client_auth: Type.Optional(Type.Union([Type.Literal('basic'), Type.Literal('body')])),
    /** How the params travel: `form` (default, RFC 6749), `json`, or `query` (providers that require it). */
    body_format: Type.Optional(
      Type.Union([Type.Literal('form'), Type.Literal('json'), Type.Literal('query')]),
    ),
    /** The option's credential fields that hold each value; each defaults to its own name. */
    fields: Type.Optional(
      Type.Object(
        {
          access_token: Type.Optional(Name),
          refresh_token: Type.Optional(Name),
          client_id: Type.Optional(Name),
          client_secret: Type.Optional(Name),
        },
        { additionalProperties: false },
      ),
    ),
    /** Keys of the token response; each defaults to its RFC 6749 name. */
    response: Type.Optional(
      Type.Object(
        {
          access_token: Type.Optional(Type.String({ minLength: 1 })),
          refresh_token: Type.Optional(Type.String({ minLength: 1 })),
          expires_in: Type.Optional(Type.String({ minLength: 1 })),
          /**
           * Other members of the token response kept as credential fields (field -> response key), e.g.
           * Salesforce's `instance_url`, which a base URL variable then reads through `credential_field`.
           */
          values: Type.Optional(Type.Record(Name, Type.String({ minLength: 1 }))),
          /**
           * A key of a 2xx token answer that names an error (Slack answers `{ok: false, error: ...}` with HTTP
           * 200): an answer with a string there is a failure with that code, as an RFC 6749 `error` would be.
           */
          error: Type.Optional(Type.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const CredentialOptionSchema = Type.Object(
  {
    title: Type.String({ minLength: 1 }),
    description: Type.String({ minLength: 1 }),
    fields: Type.Record(Type.String(), CredentialFieldSchema, { minProperties: 1 }),
    required: Type.Array(Type.String()),
    auth: AuthSchema,
    refresh: Type.Optional(RefreshSchema),
  },
  { additionalProperties: false },
);

/** `equals` compares exactly; `contains` is a case-insensitive substring test on the string form. */
const matchFields = {
  equals: Type.Optional(Scalar),
  contains: Type.Optional(Type.String({ minLength: 1 })),
};

export const ERROR_KINDS = [
  'auth_failed',
  'forbidden',
  'not_found',
  'rate_limited',
  'unavailable',
  'invalid_params',
  'error',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];
/** One literal schema per value, as a tuple: over a plain array of literals, `Type.Static` gives `never`. */
type LiteralTuple<T extends readonly string[]> = { -readonly [I in keyof T]: Type.TLiteral<T[I] & string> };

export const ErrorRuleSchema = Type.Object(
  {
    when: Type.Object(
      {
        status: Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { minItems: 1 }),
        header: Type.Optional(
          Type.Object(
            { name: Type.String({ minLength: 1 }), ...matchFields },
            { additionalProperties: false },
          ),
        ),
        body: Type.Optional(Type.Object({ path: DPath, ...matchFields }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
    error: Type.Union(ERROR_KINDS.map((k) => Type.Literal(k)) as unknown as LiteralTuple<typeof ERROR_KINDS>),
  },
  { additionalProperties: false },
);

export const ErrorsSchema = Type.Object(
  {
    /** Top-level keys of an upstream error body that may be shown to clients (`extra.upstream.body`). */
    expose_body_keys: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Rules checked in order before the default status mapping; the first match decides. */
    rules: Type.Optional(Type.Array(ErrorRuleSchema)),
    /** Extra headers read for `retry_after` when rate limited (after the standard `Retry-After`). */
    retry_after_headers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1 }),
            format: Type.Union([
              Type.Literal('seconds'),
              Type.Literal('http_date'),
              Type.Literal('unix_seconds'),
              Type.Literal('unix_ms'),
            ]),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    retry_after_default_seconds: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

/** Retries of failed idempotent requests; every key has a default (docs/connector-definitions.md). */
export const RetrySchema = Type.Object(
  {
    max_attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    initial_delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    max_delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 300_000 })),
    max_retry_after_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
  },
  { additionalProperties: false },
);

/** Proactive per-connector limit: at most `requests` per `per_seconds`, with bursts up to `requests`. */
export const RateLimitSchema = Type.Object(
  {
    requests: Type.Integer({ minimum: 1 }),
    per_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 86_400 }),
  },
  { additionalProperties: false },
);

export const BaseUrlVariableSchema = Type.Object(
  {
    description: Type.String({ minLength: 1 }),
    default: Type.Optional(Type.String({ minLength: 1 })),
    /** The replication_config key that fills it; defaults to the variable's name unless `credential_field` is set. */
    config_key: Type.Optional(Type.String({ minLength: 1 })),
    /** A (non-secret) credential field that fills it, tried before `config_key` (Zendesk's `subdomain`). */
    credential_field: Type.Optional(Type.String({ minLength: 1 })),
    /** Required for variables that are only part of a host name, so a config value can't change the host. */
    pattern: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const ConnectorDefinitionSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 64 }),
    name: Type.String({ minLength: 1 }),
    icon_url: Type.String({ format: 'uri' }),
    support_level: Type.Union([
      Type.Literal('certified'),
      Type.Literal('community'),
      Type.Literal('archived'),
      Type.Literal('none'),
    ]),
    documentation_url: Type.String({ format: 'uri' }),
    description: Type.Optional(Type.String()),
    base_url: Type.String({ minLength: 1 }),
    base_url_variables: Type.Optional(Type.Record(Type.String(), BaseUrlVariableSchema)),
    headers: Type.Optional(StringMap),
    credential_options: Type.Array(CredentialOptionSchema, { minItems: 1 }),
    check: RequestSchema,
    replication_config: Type.Object(
      {
        type: Type.Literal('object'),
        properties: Type.Record(Type.String(), Type.Object({})),
        required: Type.Optional(Type.Array(Type.String())),
      },
      { additionalProperties: true },
    ),
    errors: Type.Optional(ErrorsSchema),
    retry: Type.Optional(RetrySchema),
    /** Upstream requests in flight per connector (default 8); more wait for a slot. */
    max_concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 256 })),
    rate_limit: Type.Optional(RateLimitSchema),
    /**
     * Other names for ces's own execute params, on every action of this connector (the hosted catalog's, e.g.
     * GitHub's `after` for a page's cursor and `fields` for the record fields to return).
     */
    execute_param_aliases: Type.Optional(
      Type.Object(
        {
          cursor: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
          select_fields: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    entities: Type.Array(EntitySchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type ConnectorDefinition = Type.Static<typeof ConnectorDefinitionSchema>;
export type EntityDefinition = Type.Static<typeof EntitySchema>;
export type ActionDefinition = Type.Static<typeof ActionSchema>;
export type ParamDefinition = Type.Static<typeof ParamSchema>;
export type ContextStoreDefinition = Type.Static<typeof ContextStoreSchema>;
export type IndexedFieldDefinition = Type.Static<typeof IndexedFieldSchema>;
export type ObjectPropertyDefinition = Type.Static<typeof ObjectPropertySchema>;
export type RequestDefinition = Type.Static<typeof RequestSchema>;
export type Pagination = Type.Static<typeof PaginationSchema>;
export type AuthDefinition = Type.Static<typeof AuthSchema>;
export type AuthPlacement = Type.Static<typeof AuthPlacementSchema>;
export type CredentialOption = Type.Static<typeof CredentialOptionSchema>;
export type RefreshDefinition = Type.Static<typeof RefreshSchema>;
export type ErrorRule = Type.Static<typeof ErrorRuleSchema>;
export type ErrorsDefinition = Type.Static<typeof ErrorsSchema>;

/** Every place an option's credential goes, in declared order. */
export function authPlacements(option: CredentialOption): AuthPlacement[] {
  return Array.isArray(option.auth) ? option.auth : [option.auth];
}

/** The action of an entity, or undefined; the `actions` object is closed so indexing by name is safe. */
export function actionOf(entity: EntityDefinition, action: string): ActionDefinition | undefined {
  if (!(ACTION_NAMES as readonly string[]).includes(action)) return undefined;
  return entity.actions[action as ActionName];
}

export function actionNames(entity: EntityDefinition): ActionName[] {
  return ACTION_NAMES.filter((a) => entity.actions[a] !== undefined);
}
