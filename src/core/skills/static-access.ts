/** The static skills about getting a token and paging through answers (the README's API, for agents). */
import { code, heading, json, list, paragraph, type SkillDocument, table, tick } from './types.ts';

export function authenticationSkill(): SkillDocument {
  return {
    id: 'ces:authentication',
    kind: 'static',
    title: 'Authentication: application, scoped and widget tokens',
    summary:
      'Exchange client credentials for an application token, narrow it to one workspace with a scoped token, or mint a widget token for the connect page.',
    tags: [
      'authentication',
      'auth',
      'token',
      'bearer',
      'client-credentials',
      'scoped-token',
      'widget-token',
      'workspace',
    ],
    provenance: 'static: bundled with ces',
    warnings: [],
    guidance: [
      heading('Getting a token', 2),
      list([
        'Every route under /api/v1 needs Authorization: Bearer <token>, except the token endpoint, /healthz, /readyz, the OAuth callback and the API description.',
        'Start with an application token (client credentials); it can do everything in its organization.',
        'Hand a scoped token to a component that must stay inside one workspace (an end user’s agent).',
        'Never put credentials or tokens in prompts, logs or skill text; tokens expire, so request a new one on 401.',
      ]),
    ],
    sections: [
      {
        id: 'application-token',
        title: 'Application token (client credentials)',
        summary: 'POST /api/v1/account/applications/token with client_id and client_secret.',
        content: [
          code(
            'curl -s -X POST $BASE/api/v1/account/applications/token \\\n  -H \'content-type: application/json\' \\\n  -d "{\\"client_id\\":\\"$CLIENT_ID\\",\\"client_secret\\":\\"$CLIENT_SECRET\\"}"',
            'sh',
          ),
          json({ access_token: 'eyJ…', token_type: 'bearer', expires_in: 900, organization_id: '<uuid>' }),
          list([
            'A JWT valid 15 minutes (expires_in seconds); request a new one before it expires or on 401 UNAUTHENTICATED.',
            'An application of several organizations sends X-Organization-Id: <uuid>; without it 400 ORGANIZATION_REQUIRED, with an organization it is not in 404.',
            'Wrong credentials: 401 INVALID_CLIENT_CREDENTIALS. Repeated failures per address or client id: 429 RATE_LIMITED with Retry-After, before the secret is even checked.',
          ]),
        ],
      },
      {
        id: 'scoped-token',
        title: 'Scoped token (one workspace)',
        summary: 'POST /api/v1/account/applications/scoped-token with workspace_name.',
        content: [
          json({ workspace_name: 'customer-42' }),
          paragraph('→ {"token": "eyJ…"}, valid 20 minutes, for that one workspace (created if missing).'),
          list([
            'Works only inside its workspace: other workspaces answer 403 WORKSPACE_SCOPE_VIOLATION.',
            'Cannot do organization-level administration (listing, changing or deleting workspaces, source templates, OAuth apps, minting scoped or widget tokens): 403 FORBIDDEN.',
            'GET /api/v1/account/applications/scoped-token/info with it → {organization_id, workspace_id, workspace_name}.',
          ]),
        ],
      },
      {
        id: 'widget-token',
        title: 'Widget token (connect page)',
        summary: 'POST /api/v1/account/applications/widget-token: lets an end user connect an account.',
        content: [
          json({
            workspace_name: 'customer-42',
            allowed_origin: 'https://app.example.com',
            selected_source_template_tags: ['crm'],
          }),
          paragraph(
            '→ {"token", "expires_in": 900, "connect_url"}: frame connect_url in your page. Application tokens only.',
          ),
          list([
            'Valid 15 minutes, for one workspace (created if missing) and one page origin: https://host[:port] exactly (http:// only for localhost and 127.0.0.1).',
            'Accepted only by the connect page’s own API (/connect/api/*); no other route takes it.',
            'The page lists the organization’s source templates selected by the tags; the end user’s secrets never pass through your application.',
          ]),
        ],
      },
      {
        id: 'using-tokens',
        title: 'Using a token',
        summary: 'The header, what 401 and 403 mean, and per-organization limits.',
        content: [
          table(
            ['Answer', 'Meaning'],
            [
              [
                '401 UNAUTHENTICATED',
                'No token, not a Bearer token, invalid, expired or revoked: get a new one.',
              ],
              ['403 FORBIDDEN', 'The token kind may not do this (a scoped token doing administration).'],
              ['403 WORKSPACE_SCOPE_VIOLATION', 'A scoped token outside its workspace.'],
              ['404', 'An id of another organization is always a 404, never a 403.'],
              [
                '429 RATE_LIMITED',
                'Over CES_MAX_REQUESTS_PER_SECOND for the organization (each MCP request and execute item counts; the connect page has limits of its own): wait retry_after.',
              ],
            ],
          ),
          code('curl -s $BASE/api/v1/skills -H "authorization: Bearer $TOKEN"', 'sh'),
        ],
      },
    ],
  };
}

export function pagingSkill(): SkillDocument {
  return {
    id: 'ces:paging',
    kind: 'static',
    title: 'Paging',
    summary:
      'How every paged answer continues: connector_metadata.end_cursor passed back as params.cursor for execute and search, next_cursor and next for the API’s own lists.',
    tags: ['paging', 'pagination', 'cursor', 'end_cursor', 'has_next_page', 'next_cursor'],
    provenance: 'static: bundled with ces',
    warnings: [],
    guidance: [
      heading('Paging', 2),
      list([
        `Execute (list, api_search, search): read ${tick('connector_metadata.has_next_page')}; while true, send the same request with ${tick('params.cursor')} = ${tick('connector_metadata.end_cursor')}.`,
        'Cursors are opaque and tamper-evident: never build or edit one. An altered one, or one from another query, is 422 INVALID_CURSOR.',
      ]),
    ],
    sections: [
      {
        id: 'execute',
        title: 'Connector actions (list, api_search)',
        summary: 'One paging model for every provider: has_next_page and end_cursor.',
        content: [
          json({
            entity: 'issues',
            action: 'list',
            params: { owner: 'octocat', repo: 'Hello-World', per_page: 10 },
          }),
          paragraph('→ connector_metadata {"has_next_page": true, "end_cursor": "Ag…"}; next page:'),
          json({ entity: 'issues', action: 'list', params: { cursor: 'Ag…' } }),
          list([
            'The cursor holds the whole next-page request, encrypted and tamper-evident: the other params may be left out.',
            'The last page has has_next_page false and end_cursor null.',
            'Some connector types also take the cursor under the provider’s name (GitHub’s after, Notion’s start_cursor): see the connector skill’s paging section.', // provider-names: prose
            'Page size is the provider’s own param (per_page, limit, page_size…), documented per action.',
          ]),
        ],
      },
      {
        id: 'search',
        title: 'Context Store search',
        summary: 'The same cursor, bound to the query it came from.',
        content: [
          paragraph(
            'Repeat the same query (filter, sort, fields) with params.cursor = end_cursor; limit is 1–1000 (default 100). Action context_store_search also answers the cursor as result.meta.cursor (with result.meta.has_more): the same value, and either action continues the other’s. A cursor used with another query, entity or connector is 422 INVALID_CURSOR.',
          ),
        ],
      },
      {
        id: 'api-lists',
        title: 'Lists of the API itself',
        summary: 'Workspaces and skills page with limit and cursor.',
        content: [
          table(
            ['Route', 'Params', 'Next page'],
            [
              [
                'GET /api/v1/workspaces',
                'limit 1–100 (default 20), cursor',
                '`next`: the URL of the next page, or null',
              ],
              [
                'GET /api/v1/skills, /api/v1/skills/search',
                'limit 1–100 (default 20), cursor',
                '`next_cursor`, or null at the end',
              ],
            ],
          ),
        ],
      },
    ],
  };
}
