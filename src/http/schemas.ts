import { type TSchema, Type } from 'typebox';
import { WIRE_CODES, type WireCode } from './errors.ts';

/** Shared wire schemas. Names and shapes follow the reference spec (snake_case bodies, camelCase catalog). */
export const Uuid = Type.String({ format: 'uuid', maxLength: 36 });
export const ShortText = (max = 200) => Type.String({ minLength: 1, maxLength: max });
/** A name as users type it: no leading or trailing white space, which would make look-alike duplicates. */
export const Name = (max = 200) => Type.String({ minLength: 1, maxLength: max, pattern: '^\\S(.*\\S)?$' });

/**
 * The options of a request schema that is open in the reference (its additionalProperties absent or true):
 * members it does not name are accepted, dropped and named in the `x-ces-ignored-fields` reply header
 * (http/ignored-members.ts). Request schemas without it stay closed: an unknown member is a 422.
 */
export const OPEN_REQUEST = { additionalProperties: true } as const;

export const ErrorDetailSchema = Type.Object({
  field: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
  error_code: Type.String(),
  details: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
});

export const ErrorBodySchema = Type.Object(
  {
    message: Type.String(),
    // A closed enum, so SDKs and agents see every code. The reference's `code` is a free string: this narrows
    // it on our side only, so clients of the hosted service keep working.
    code: Type.Unsafe<WireCode>({
      type: 'string',
      enum: [...WIRE_CODES],
      description:
        'Stable UPPER_SNAKE error code. What each means, its HTTP status and whether to retry: the ces:errors skill (GET /api/v1/skills/docs?id=ces:errors&section=codes).',
    }),
    request_id: Type.String(),
    errors: Type.Array(ErrorDetailSchema),
    retry_after: Type.Optional(Type.Integer()),
    upstream: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { $id: 'ApiErrorResponse', additionalProperties: true },
);

/** Error responses every authenticated route can give, for the OpenAPI document. */
export function withErrors(
  responses: Record<number, TSchema>,
  extra: number[] = [],
): Record<number, TSchema> {
  const out: Record<number, TSchema> = { ...responses };
  // 429: every authenticated route counts against a request rate (its organization's, or its end user's).
  for (const status of [400, 401, 403, 404, 413, 415, 422, 429, 500, ...extra])
    out[status] = Type.Ref('ApiErrorResponse');
  return out;
}

export const WorkspaceSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  organization_id: Uuid,
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
  cache_enabled: Type.Union([Type.Boolean(), Type.Null()]),
  tombstone: Type.Boolean(),
  visibility: Type.Union([Type.Literal('shared'), Type.Literal('private')]),
  color: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** The reference's RequestedEntity: an entity a connector is asked to serve; no modes: every mode. */
export const RequestedEntitySchema = Type.Object(
  {
    entity: ShortText(100),
    modes: Type.Optional(
      Type.Union([
        Type.Array(Type.Union([Type.Literal('read'), Type.Literal('write')]), {
          maxItems: 2,
          uniqueItems: true,
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

/** A source template as the reference shows it (DetailedSourceTemplate / SummarizedSourceTemplate). */
export const SourceTemplateSchema = Type.Object({}, { additionalProperties: true });

const connectorFields = {
  id: Uuid,
  name: Type.String(),
  workspace_id: Uuid,
  workspace_name: Type.String(),
  definition_id: Uuid,
  connector_type: Type.String(),
  credential_option: Type.String({
    description: 'option_title of the credential option in use (never the values)',
  }),
  credentials_status: Type.Union([Type.Literal('valid'), Type.Literal('needs_reauth')], {
    description:
      'needs_reauth: the provider refused to renew the OAuth2 grant; execute answers CONNECTOR_REAUTH_REQUIRED until new credentials are PUT',
  }),
  credentials_error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the credentials need re-authorisation (never a credential value); null while valid',
  }),
  replication_config: Type.Object({}, { additionalProperties: true }),
  context_store: Type.Union(
    [
      Type.Object({
        status: Type.Union(
          ['Loading', 'Building Preview', 'Preview', 'Ready', 'Failed'].map((s) => Type.Literal(s)),
        ),
        entity_count: Type.Integer({ description: 'records indexed, all entities together' }),
      }),
      Type.Null(),
    ],
    {
      description:
        'The Context Store (search index) of this connector; null when its type indexes nothing. Details: GET …/inspect',
    },
  ),
  entities: Type.Union([Type.Array(RequestedEntitySchema), Type.Null()], {
    description: 'The entities its creator asked for; null: every entity',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const ConnectorSchema = Type.Object({
  ...connectorFields,
  source_template: SourceTemplateSchema,
});

export const ConnectorListItemSchema = Type.Object({
  ...connectorFields,
  summarized_source_template: SourceTemplateSchema,
});

export const DeletedSchema = Type.Object({ id: Uuid, deleted_at: Type.String({ format: 'date-time' }) });
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/**
 * A connector's credentials: the definition decides the fields (core checks them), this bounds each value. A
 * credential travels in a header, and a header of many kilobytes is refused by the provider (a 431 that would
 * reach the client as a 502); no real token comes near 8 KiB.
 */
export const CREDENTIAL_VALUE_MAX_LENGTH = 8192;
export const Credentials = () =>
  Type.Record(Type.String({ maxLength: 100 }), Type.Unknown({ maxLength: CREDENTIAL_VALUE_MAX_LENGTH }), {
    maxProperties: 50,
  });

/** A free-form JSON object (typed as a record, so handlers can pass it on without casts). */
export const JsonObject = (maxProperties = 100) =>
  Type.Record(Type.String(), Type.Unknown(), { maxProperties });
