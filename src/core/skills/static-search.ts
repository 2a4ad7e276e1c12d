/**
 * The static skill about the Context Store search DSL: request shape, operators, examples, limits and
 * readiness. The limits are read from the compiler's own SEARCH_LIMITS; which operator applies to which field of
 * a connector is in that connector's skill (section `search`), probed against the compiler.
 */
import { SEARCH_LIMITS } from '../../context-store/query.ts';
import { code, heading, json, list, paragraph, type SkillDocument, table, tick } from './types.ts';

const OPERATORS: string[][] = [
  ['eq, neq', '{"eq": {"state": "open"}}', 'all scalar types', 'neq also matches a missing value'],
  [
    'gt, gte, lt, lte',
    '{"gte": {"created_at": "2026-01-01T00:00:00Z"}}',
    'numbers, timestamps (ISO 8601), strings',
    'timestamps compare as instants',
  ],
  ['in', '{"in": {"state": ["open", "closed"]}}', 'scalar types', 'any of the values'],
  ['like', '{"like": {"user.login": "%bot"}}', 'string, text', '% wildcard, case-insensitive'],
  [
    'fuzzy',
    '{"fuzzy": {"title": "login bug"}}',
    'string, text',
    'all these words, in this order, case and punctuation ignored (full text)',
  ],
  ['keyword', '{"keyword": {"title": "refund outage"}}', 'string, text', 'any of the words (full text)'],
  ['contains', '{"contains": {"tags": "vip"}}', 'arrays of scalars', 'the array holds the value'],
  [
    'any',
    '{"any": {"labels": {"eq": {"name": "bug"}}}}',
    'arrays of objects',
    'some element matches the inner condition (comparisons, in, like on its members)',
  ],
  ['and, or, not', '{"or": [c1, c2]}, {"not": c}', '', 'several keys in one object are ANDed too'],
];

export function searchDslSkill(): SkillDocument {
  const L = SEARCH_LIMITS;
  return {
    id: 'ces:search-dsl',
    kind: 'static',
    title: 'Context Store search DSL',
    summary:
      'Search a connector’s Context Store with action search: filter operators (eq, in, like, fuzzy, keyword, contains, any, and/or/not), sort, fields, paging and limits.',
    tags: [
      'search',
      'context-store',
      'query',
      'filter',
      'sort',
      'dsl',
      'operators',
      'fuzzy',
      'keyword',
      'full-text',
    ],
    provenance: 'static: bundled with ces (src/context-store query compiler)',
    warnings: [],
    guidance: [
      heading('Searching the Context Store', 2),
      list([
        `Execute ${tick('{"entity": "<entity>", "action": "search", "params": {...}}')} (or action ${tick('context_store_search')}: the same query, its answer a page object) on a connector; it reads ces’s index, never the provider.`,
        'Which entities are indexed and which fields each takes: the connector’s skill (connector-source:<definition id>), section search.',
        'Before the first search, GET /api/v1/integrations/connectors/{id}/inspect: search works on an entity once its ready_for_search is true.',
      ]),
    ],
    sections: [
      {
        id: 'request',
        title: 'Request',
        summary: 'params: query {filter, sort}, limit, cursor, fields.',
        content: [
          table(
            ['Param', 'Meaning'],
            [
              [
                'query.filter',
                'A condition: the operator is the outer key (see operators); omitted or {} matches all.',
              ],
              [
                'query.sort',
                `Up to ${L.sortKeys} keys: [{"<field>": "asc" | "desc"}]; text and array fields cannot be sorted.`,
              ],
              ['limit', '1–1000, default 100.'],
              [
                'cursor',
                'The previous page’s connector_metadata.end_cursor (for context_store_search also its result.meta.cursor: the same value), with the same query.',
              ],
              [
                'fields',
                'The record fields to return, like select_fields: dot paths (["number", "user.login"]) or key lists ([["number"], ["user", "login"]]).',
              ],
            ],
          ),
          paragraph(
            'The answer: with action search, result is an array of records (page on while connector_metadata.has_next_page, with params.cursor = connector_metadata.end_cursor); with action context_store_search, result is {data: [records], meta: {has_more, cursor, took_ms}} (page on while meta.has_more, with params.cursor = meta.cursor). Both carry connector_metadata {has_next_page, end_cursor, took_ms}; took_ms is whole milliseconds.',
          ),
        ],
      },
      {
        id: 'operators',
        title: 'Operators',
        summary: 'Every filter operator, an example, and the field types it applies to.',
        content: [
          table(['Operator', 'Example', 'Fields', 'Notes'], OPERATORS),
          paragraph(
            'An unknown field or operator, or a value of the wrong type, is a 422 INVALID_QUERY naming its path (e.g. query.filter.and[1].eq.state).',
          ),
        ],
      },
      {
        id: 'examples',
        title: 'Examples',
        summary: 'Complete execute bodies using the DSL.',
        content: [
          json({
            entity: 'issues',
            action: 'search',
            params: {
              query: {
                filter: { and: [{ eq: { state: 'open' } }, { fuzzy: { title: 'login bug' } }] },
                sort: [{ updated_at: 'desc' }],
              },
              limit: 10,
              fields: ['number', 'title', 'user.login'],
            },
          }),
          json({
            entity: 'issues',
            action: 'search',
            params: {
              query: {
                filter: {
                  or: [{ any: { labels: { eq: { name: 'bug' } } } }, { keyword: { body: 'crash outage' } }],
                  not: { like: { 'user.login': '%[bot]' } },
                },
              },
            },
          }),
          code(
            'curl -s -X POST $BASE/api/v1/integrations/connectors/$CONNECTOR/execute \\\n  -H "authorization: Bearer $TOKEN" -H \'content-type: application/json\' \\\n  -d \'{"entity":"issues","action":"search","params":{"query":{"filter":{"eq":{"state":"open"}}},"limit":10}}\'',
            'sh',
          ),
        ],
      },
      {
        id: 'limits',
        title: 'Limits',
        summary: 'Bounds a query must stay within, the time budget and concurrency.',
        content: [
          table(
            ['Limit', 'Max'],
            [
              ['conditions (each field of an operator counts)', String(L.conditions)],
              ['nesting of and/or/not/any', String(L.depth)],
              ['like conditions (inside any too)', String(L.like)],
              ['any conditions', String(L.any)],
              ['fuzzy + keyword conditions', String(L.fullText)],
              ['words of all fuzzy/keyword together', String(L.words)],
              ['values of all in together', String(L.inValues)],
              ['sort keys', String(L.sortKeys)],
              ['a value / a like pattern (characters)', `${L.stringLength} / ${L.likeLength}`],
            ],
          ),
          list([
            'Past a limit: 422 INVALID_QUERY naming the path, with errors[0].details {limit, max}.',
            'A search running past its time budget (CES_SEARCH_TIMEOUT_MS, default 2000) is stopped: 503 SEARCH_TIMEOUT; narrow the filter.',
            'Searches wait their turn; one your organization’s searches already waiting would keep waiting past two budgets is refused: 429 SEARCH_QUEUE_FULL with Retry-After (send fewer at once, or cheaper ones). When the search readers are busy for every organization: 503 SERVER_BUSY with Retry-After.',
          ]),
        ],
      },
      {
        id: 'readiness',
        title: 'Readiness',
        summary: 'When a connector’s index can be searched.',
        content: [
          code(
            'connector:  Loading ──► Building Preview ──► Preview ──► Ready\nentity:     Initializing ──► Building Preview ──► Preview ──► Ready ◄──► Updating\n                 └────────────── any ──────────────► Failed (last_error; retried)',
            'text',
          ),
          list([
            'Readiness is per entity: an entity is searchable once its first page is stored (ready_for_search), whatever the other entities are doing.',
            'Connector status summarises: Building Preview: nothing searchable yet; Preview: some entities searchable, others still on their way; Ready: every backfill done.',
            'An entity not searchable yet: 409 CONTEXT_STORE_NOT_READY with context_store_status and entity_status; use list/get meanwhile.',
            'An entity the provider refuses (a missing permission or scope) is Failed at once; its last_error says what to grant, and it is tried again at the next interval or when the credentials or replication_config change.',
            'GET /api/v1/integrations/connectors/{id}/inspect shows status, ready_for_search, entity_count and last_error per entity, and warnings naming each failed entity.',
          ]),
        ],
      },
    ],
  };
}
