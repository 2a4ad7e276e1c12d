// GraphQL operations in the definition format (`request.graphql`, `relay` paging, errors in a 200), on a
// fictional provider whose GraphQL endpoint sits beside a versioned REST root, so the runtime is tested on
// declarations rather than on one provider's choices.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { nextPage } from '../../../src/connectors/runtime/paginators.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { DomainError } from '../../../src/errors.ts';
import { domainError } from '../../helpers/domain-error.ts';
import { json, runtime, startServer } from './helpers.ts';

const QUERY = `query($owner: String!, $first: Int, $after: String, $open: Boolean) {
  team(login: $owner) { boards(first: $first, after: $after, open: $open) {
    pageInfo { hasNextPage endCursor } nodes { id title } } } }`;

const YAML = `
id: 7a3e6c10-2b4d-4e8f-9a1b-3c5d7e9f1a2b
slug: quiver
name: Quiver
icon_url: https://quiver.example/icon.svg
support_level: community
documentation_url: https://quiver.example/docs
base_url: https://api.quiver.example/rest/v2
credential_options:
  - title: Key
    description: Key.
    fields:
      key: { type: string, title: Key, description: The key., secret: true }
    required: [key]
    auth: { type: bearer, token: "{key}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
errors:
  expose_body_keys: [errors]
  rules:
    - when: { status: [200], body: { path: [errors, "0", type], equals: NOT_FOUND } }
      error: not_found
entities:
  - name: boards
    description: Boards of a team.
    primary_key: [id]
    actions:
      list:
        description: Boards through GraphQL.
        params:
          owner: { type: string, required: true, description: Team login. }
          per_page: { type: integer, api_name: first, minimum: 1, maximum: 100, description: Page size. }
          open: { type: boolean, description: Open boards only. }
        request:
          method: POST
          path: /../../graphql
          idempotent: true
          graphql:
            variables: { first: 2 }
            query: ${JSON.stringify(QUERY)}
        record_selector: [data, team, boards, nodes]
        pagination: { type: relay, page_info: [data, team, boards, pageInfo], variable: after }
`;

const def = parseDefinition(YAML, 'quiver.yaml');
const KEY = { option: 'Key', values: { key: 'quiver-secret-key-123' } };
const BOARDS = Array.from({ length: 5 }, (_, i) => ({ id: `B${i + 1}`, title: `Board ${i + 1}` }));

function load(patch: (yaml: string) => string): () => unknown {
  return () => parseDefinition(patch(YAML), 'quiver.yaml');
}

describe('definition checks for GraphQL operations', () => {
  it('accepts the fictional definition', () => {
    assert.equal(def.entities[0]?.actions.list?.request.graphql?.variables?.first, 2);
  });

  it('refuses a GraphQL operation that is not a POST', () => {
    assert.throws(
      load((y) => y.replace('method: POST', 'method: GET')),
      /quiver\.yaml: \/entities\/0\/actions\/list\/request\/method: a GraphQL operation is sent as a POST/,
    );
  });

  it('refuses params and constants the query declares no variable for', () => {
    assert.throws(
      load((y) => y.replace('open: { type: boolean,', 'closed: { type: boolean,')),
      /\/entities\/0\/actions\/list\/params\/closed: the query declares no variable \$closed/,
    );
    assert.throws(
      load((y) => y.replace('variables: { first: 2 }', 'variables: { last: 2 }')),
      /\/entities\/0\/actions\/list\/request\/graphql\/variables\/last: the query declares no variable \$last/,
    );
    assert.throws(
      load((y) => y.replace('variable: after', 'variable: cursor')),
      /\/entities\/0\/actions\/list\/pagination: the query declares no variable \$cursor/,
    );
  });

  it('refuses relay paging without a GraphQL operation', () => {
    assert.throws(
      load((y) => y.replace(/ {10}graphql:\n.*\n.*\n/, '')),
      /\/entities\/0\/actions\/list\/pagination: relay paging needs a request.graphql operation/,
    );
  });

  it("allows '..' only at the start of a path", () => {
    assert.throws(
      load((y) => y.replace('path: /../../graphql', 'path: /api/../graphql')),
      /\/entities\/0\/actions\/list\/request\/path: '\.' and '\.\.' segments are only allowed at the start/,
    );
    assert.throws(
      load((y) => y.replace('path: /../../graphql', 'path: /../..')),
      /names no endpoint/,
    );
  });
});

describe('nextPage with relay', () => {
  const p = { type: 'relay' as const, page_info: ['data', 'x', 'pageInfo'], variable: 'after' };
  const base = { url: new URL('https://q.example/graphql'), headers: {}, records: [1] };
  const sent = { query: 'q', variables: { first: 1, after: 'a1' } };

  it('repeats the operation with the cursor variable set while hasNextPage is true', () => {
    const body = { data: { x: { pageInfo: { hasNextPage: true, endCursor: 'a2' } } } };
    const next = nextPage(p, { ...base, body, requestBody: sent });
    assert.equal(next?.url.href, 'https://q.example/graphql');
    assert.deepEqual(next?.body, { query: 'q', variables: { first: 1, after: 'a2' } });
  });

  it('stops on the last page, or when the connection is missing', () => {
    const last = { data: { x: { pageInfo: { hasNextPage: false, endCursor: 'a2' } } } };
    assert.equal(nextPage(p, { ...base, body: last, requestBody: sent }), null);
    assert.equal(nextPage(p, { ...base, body: { data: { x: null } }, requestBody: sent }), null);
    const noCursor = { data: { x: { pageInfo: { hasNextPage: true, endCursor: null } } } };
    assert.equal(nextPage(p, { ...base, body: noCursor, requestBody: sent }), null);
  });
});

describe('a GraphQL operation through the runtime', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;

  before(async () => {
    server = await startServer((req, res) => {
      if (req.method !== 'POST' || req.url !== '/graphql') return json(res, 404, { message: 'Not Found' });
      const { variables } = JSON.parse(req.body) as { variables: Record<string, unknown> };
      if (variables.owner === 'ghost')
        return json(res, 200, {
          data: { team: null },
          errors: [{ type: 'NOT_FOUND', path: ['team'], message: "Could not resolve to a Team 'ghost'." }],
        });
      if (variables.owner === 'leaky')
        return json(res, 200, {
          errors: [{ message: `Bad token ${req.headers.authorization ?? ''} for this query` }],
        });
      const first = Number(variables.first);
      const at = typeof variables.after === 'string' ? Number(variables.after.slice(1)) : 0;
      const nodes = BOARDS.slice(at, at + first);
      const end = at + nodes.length;
      json(res, 200, {
        data: {
          team: {
            boards: { pageInfo: { hasNextPage: end < BOARDS.length, endCursor: `c${end}` }, nodes },
          },
        },
      });
    });
    // The override keeps the REST root's path, so the request proves the path climbs out of it.
    rt = runtime({ quiver: `${server.url}/rest/v2` });
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  const exec = (params: Record<string, unknown>) =>
    rt.execute({
      connectorId: 'c1',
      definition: def,
      credentials: KEY,
      config: {},
      entity: 'boards',
      action: 'list',
      params,
    });

  it('sends {query, variables} and pages to the end through signed cursors', async () => {
    server.seen.length = 0;
    let out = await exec({ owner: 'acme', open: true });
    const ids = [...(parseRecords(out.payload) as Array<{ id: string }>)];
    while (out.connector_metadata.has_next_page) {
      out = await exec({ cursor: out.connector_metadata.end_cursor });
      ids.push(...(parseRecords(out.payload) as Array<{ id: string }>));
    }
    assert.deepEqual(
      ids.map((b) => b.id),
      BOARDS.map((b) => b.id),
    );
    assert.equal(out.connector_metadata.end_cursor, null);
    assert.deepEqual(
      server.seen.map((r) => [r.method, r.url, r.headers['content-type'], JSON.parse(r.body)]),
      [undefined, 'c2', 'c4'].map((after) => [
        'POST',
        '/graphql',
        'application/json; charset=utf-8',
        { query: QUERY, variables: { first: 2, owner: 'acme', open: true, ...(after ? { after } : {}) } },
      ]),
    );
    assert.ok(server.seen.every((r) => r.headers.authorization === 'Bearer quiver-secret-key-123'));
  });

  it('lets a param override a constant variable', async () => {
    server.seen.length = 0;
    const out = await exec({ owner: 'acme', per_page: 5 });
    assert.equal((parseRecords(out.payload) as unknown[]).length, 5);
    assert.equal(out.connector_metadata.has_next_page, false);
    assert.deepEqual(JSON.parse(server.seen[0]?.body ?? '').variables, { first: 5, owner: 'acme' });
  });

  it('validates params before any request', async () => {
    server.seen.length = 0;
    await assert.rejects(exec({ owner: 'acme', per_page: 'ten' }), domainError('INVALID_PARAMS'));
    await assert.rejects(exec({}), domainError('INVALID_PARAMS'));
    assert.equal(server.seen.length, 0);
  });

  it('maps an error in a 200 by the rules (NOT_FOUND -> UPSTREAM_NOT_FOUND)', async () => {
    await assert.rejects(
      exec({ owner: 'ghost' }),
      domainError('UPSTREAM_NOT_FOUND', /Could not resolve to a Team 'ghost'/),
    );
  });

  it('reads any other errors array in a 200 as UPSTREAM_ERROR, never echoing the credential', async () => {
    let caught: unknown;
    await exec({ owner: 'leaky' }).catch((err: unknown) => {
      caught = err;
    });
    assert.ok(caught instanceof DomainError);
    assert.equal(caught.code, 'UPSTREAM_ERROR');
    // The fake echoed the token: the message shows where it was, redacted.
    assert.match(caught.message, /Bad token Bearer \[redacted\] for this query/);
    assert.doesNotMatch(JSON.stringify({ m: caught.message, x: caught.extra }), /quiver-secret-key-123/);
  });
});
