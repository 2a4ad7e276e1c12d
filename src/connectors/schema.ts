/**
 * The schema of a connector definition file (`src/connectors/definitions/<slug>.yaml`).
 *
 * Connector types are data: everything provider-specific (URLs, auth placement, paging style, error quirks)
 * is a declared option here, and the runtime only interprets these declarations; a quirk of one provider that no
 * other shares is a hook of that provider instead (`hooks`, `uses_hooks`: src/connectors/hooks/).
 * `docs/connector-definitions.md` documents every field; keep the two in step.
 */
import Type from 'typebox';
import {
  ACTION_NAMES,
  type ActionName,
  ActionSchema,
  type ObjectPropertySchema,
  type PaginationSchema,
  type ParamSchema,
  RequestSchema,
} from './schema-action.ts';
import { ContextStoreSchema, type IndexedFieldSchema } from './schema-context-store.ts';
import {
  type AuthPlacementSchema,
  type AuthSchema,
  CredentialOptionSchema,
  type RefreshSchema,
} from './schema-credentials.ts';
import { DPath, Name, Scalar, StringMap } from './schema-parts.ts';
import { RecordFieldsSchema } from './schema-records.ts';

export * from './schema-action.ts';
export * from './schema-context-store.ts';
export * from './schema-credentials.ts';
export * from './schema-records.ts';

/**
 * What the provider means when it refuses this entity to credentials that may not see it, in words a user can
 * act on (which permission or scope to grant). GitHub answers a fine-grained token without a repository
 * permission 404, as if the repository had no pull requests: without these words the error says "not found".
 */
export const PermissionHintSchema = Type.Object(
  {
    /** The error kinds the text explains: `not_found` (a 404 or 410, or a rule's), `forbidden` (a 403, or a rule's). */
    on: Type.Array(Type.Union([Type.Literal('not_found'), Type.Literal('forbidden')]), {
      minItems: 1,
      uniqueItems: true,
    }),
    /** Shown as written after the provider's own message (no placeholders). */
    text: Type.String({ minLength: 1, maxLength: 500 }),
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
    /**
     * Members written on the records of every action of the entity (an action's own `record_fields` replaces
     * them), so its records type as the hosted catalog types them (schema-records.ts).
     */
    record_fields: Type.Optional(RecordFieldsSchema),
    /** Declared only for entities the Context Store replicates; such an entity must have a `list` action. */
    context_store: Type.Optional(ContextStoreSchema),
    permission_hint: Type.Optional(PermissionHintSchema),
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
    /**
     * For providers that answer errors as a top-level JSON array (`[{"message", "errorCode"}]`): the array is
     * read as the member of this name of an object (`{errors: [...]}`) by `rules`, `expose_body_keys` and
     * `message_paths`, which otherwise address members of an object only. Must be one of `expose_body_keys`.
     */
    array_body_key: Type.Optional(Type.String({ minLength: 1, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
    /**
     * Where in the exposed body the provider's own words are, tried in order before the exposed keys
     * themselves (Stripe's `[error, message]`); each must start with an exposed key.
     */
    message_paths: Type.Optional(Type.Array(DPath, { minItems: 1, maxItems: 4 })),
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
              Type.Literal('iso8601'),
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
/**
 * A header of every answer telling how full the provider's own bucket is: `used_of_size` reads `used/size`
 * (Shopify's `X-Shopify-Shop-Api-Call-Limit: 32/40`); `remaining` reads a count left, of the total in
 * `size_header` (`X-RateLimit-Remaining` of `X-RateLimit-Limit`). ces's bucket then holds no more than that
 * share of its own size, so requests made with the same credentials elsewhere slow ces down before a 429.
 */
export const UsageHeaderSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, pattern: '^[A-Za-z0-9-]+$' }),
    format: Type.Union([Type.Literal('used_of_size'), Type.Literal('remaining')]),
    size_header: Type.Optional(Type.String({ minLength: 1, pattern: '^[A-Za-z0-9-]+$' })),
  },
  { additionalProperties: false },
);

export const RateLimitSchema = Type.Object(
  {
    requests: Type.Integer({ minimum: 1 }),
    per_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 86_400 }),
    usage_header: Type.Optional(UsageHeaderSchema),
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

/** One param defaulted from a replication_config array; see `scoping` below and runtime/scoping.ts. */
const ScopingSchema = Type.Object(
  {
    /** The param it fills, on every action that declares it as required. */
    param: Type.String({ minLength: 1 }),
    /** The replication_config array of strings the scope comes from. */
    config: Type.String({ minLength: 1 }),
    /** Each item is matched as for Context Store partitions: `{owner}/{repo}`; an item that doesn't fit is skipped. */
    pattern: Type.String({ minLength: 1 }),
    /** The param's value from a matched item's placeholders; default `{<param>}`. */
    value: Type.Optional(Type.String({ minLength: 1 })),
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
    /**
     * Required params a client may leave out when the connector's replication_config names one scope for them
     * (the hosted catalog's `x-airbyte-scoping`): GitHub's `owner` and `repo` from a single configured
     * `repositories: ["owner/repo"]`.
     */
    scoping: Type.Optional(Type.Array(ScopingSchema, { minItems: 1 })),
    /**
     * The hook module of this connector (src/connectors/hooks/index.ts): the quirks of this one provider that
     * the format does not declare, used where an action names them in `uses_hooks`.
     */
    hooks: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 64 })),
    entities: Type.Array(EntitySchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type ConnectorDefinition = Type.Static<typeof ConnectorDefinitionSchema>;
export type EntityDefinition = Type.Static<typeof EntitySchema>;
export type ScopingDefinition = Type.Static<typeof ScopingSchema>;
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
export type PermissionHint = Type.Static<typeof PermissionHintSchema>;

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
