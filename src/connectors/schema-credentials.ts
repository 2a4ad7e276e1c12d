/** The definition schema of credential options: fields, where the credential goes, OAuth2 (see schema.ts). */
import Type from 'typebox';
import { Name } from './schema-parts.ts';

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
           * The key of the token answer holding the error code instead of RFC 6749's `error` (HubSpot's
           * `status`), on any status; a 2xx answer with a string there is a failure too (Slack answers
           * `{ok: false, error: ...}` with HTTP 200).
           */
          error: Type.Optional(Type.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * The authorization code grant (RFC 6749 section 4.1) that obtains this option's tokens through the end user's
 * consent: where ces sends the user's browser, with which scopes, and whether with PKCE (RFC 7636, S256). The
 * code is exchanged at the option's `refresh.token_url`, with the same client authentication, body format and
 * response keys, so an option with `authorization` also declares `refresh` (refresh_token grant).
 */
export const AuthorizationSchema = Type.Object(
  {
    /** The authorization endpoint; `{variables}` are `base_url_variables`, filled from the connector's config. */
    url: Type.String({ minLength: 1 }),
    /** Scopes requested; each a RFC 6749 3.3 scope token. */
    scopes: Type.Optional(Type.Array(Type.String({ pattern: '^[\\x21-\\x7e]{1,256}$' }), { maxItems: 100 })),
    /** How scopes are joined: a space (RFC 6749, default) or a comma (Slack, Linear). */
    scope_separator: Type.Optional(Type.Union([Type.Literal(' '), Type.Literal(',')])),
    /** The query parameter carrying them (default `scope`). */
    scope_param: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$' })),
    /** Send a PKCE S256 code challenge and its verifier (RFC 7636); default false. */
    pkce: Type.Optional(Type.Boolean()),
    /** Constant query parameters the provider needs (Notion's `owner: user`). */
    params: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$' }),
        Type.String({ maxLength: 256 }),
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
    authorization: Type.Optional(AuthorizationSchema),
  },
  { additionalProperties: false },
);
