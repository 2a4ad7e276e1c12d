// `record_fields` on a fictional provider through the HTTP API: members written on each record of list, get,
// api_search, create and update (read from the provider's record, so two can swap; dot paths; conversions),
// an action's own replacing the entity's, delete answers untouched, select_fields and a keyset paginator seeing
// what they should, the Context Store keyed and searched on the written record; and the load-time checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseDefinition } from '../../src/connectors/load.ts';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import { convert } from '../../src/connectors/runtime/record-fields.ts';
import { entityState } from '../helpers/context-store.ts';
import { testDefinitionYaml } from '../helpers/definition-yaml.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { json, startServer } from '../unit/connectors/helpers.ts';

const ENTITIES = `  - name: widgets
    description: Widgets.
    primary_key: [database_id]
    record_fields:
      id: { from: [node_id], description: The node id (the hosted catalog's id). }
      database_id: { from: [id], description: The provider's numeric id. }
      number: { from: [number], type: string, description: The number as text. }
      size: { from: [size], type: integer, description: The size as a number. }
      owner.key: { from: [owner_key], description: The owner's key under owner. }
      meta.origin.node: { from: [node_id], description: Deep and made where missing. }
      tags.first: { from: [tags, "0"], description: Not written as tags is a list. }
    actions:
      list:
        description: Widgets, paged after the last id.
        request: { method: GET, path: /widgets }
        record_selector: [widgets]
        pagination: { type: keyset, param: after, record_key: [id], has_more_path: [has_more] }
        page_size_param: false
      get:
        description: One widget.
        params: { id: { type: integer, required: true, description: Its id. } }
        request: { method: GET, path: "/widgets/{id}" }
      create:
        description: Makes a widget; answered as the provider sends it.
        params: { name: { type: string, required: true, description: Its name. } }
        request: { method: POST, path: /widgets }
        record_fields: {}
      update:
        description: Renames a widget; only its id is rewritten.
        params:
          id: { type: integer, required: true, description: Its id. }
          name: { type: string, required: true, description: Its name. }
        request: { method: PATCH, path: "/widgets/{id}" }
        record_fields:
          id: { from: [node_id], description: The node id. }
      delete:
        description: Removes a widget.
        params: { id: { type: integer, required: true, description: Its id. } }
        request: { method: DELETE, path: "/widgets/{id}" }
    context_store:
      fields:
        - { name: id, type: string }
        - { name: database_id, type: integer }
        - { name: number, type: string }
`;

const YAML = testDefinitionYaml('6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f', 'widgetco', ENTITIES);

/** The provider's widgets: numeric ids, node ids, a number, sizes of several shapes. */
const WIDGETS = [
  { id: 101, node_id: 'W_101', number: 1, size: '12', owner_key: 'k1', owner: { login: 'a' }, tags: ['x'] },
  { id: 102, node_id: 'W_102', number: 2, size: 7.5, owner_key: null, tags: [] },
  { id: 103, node_id: 'W_103', number: 3, size: 'big', owner: null },
];

const written = (w: (typeof WIDGETS)[number]) => {
  const { owner, ...rest } = w as Record<string, unknown>;
  const size = w.size === '12' ? 12 : null;
  return {
    ...rest,
    id: w.node_id,
    database_id: w.id,
    number: String(w.number),
    size,
    owner: { ...(owner as object | null | undefined), key: (w as { owner_key?: unknown }).owner_key ?? null },
    meta: { origin: { node: w.node_id } },
    // A list in the way is kept; a missing member is made.
    ...('tags' in w ? {} : { tags: { first: null } }),
  };
};

describe('record_fields', () => {
  let h: Harness;
  let token: string;
  let id: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  const exec = (action: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: 'widgets', action, params, ...extra },
    });

  before(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/me') return json(res, 200, { id: 'me' });
      if (req.method === 'GET' && url.pathname === '/widgets') {
        // Keyset paging on the provider's own id: a node id here would be refused.
        const after = url.searchParams.get('after');
        if (after !== null && !/^\d+$/.test(after)) return json(res, 400, { message: `bad after ${after}` });
        const rest = WIDGETS.filter((w) => after === null || w.id > Number(after));
        return json(res, 200, { widgets: rest.slice(0, 2), has_more: rest.length > 2 });
      }
      const one = /^\/widgets\/(\d+)$/.exec(url.pathname);
      const widget = one ? WIDGETS.find((w) => w.id === Number(one[1])) : undefined;
      if (req.method === 'GET' && widget) return json(res, 200, widget);
      if (req.method === 'POST')
        return json(res, 201, { id: 104, node_id: 'W_104', ...JSON.parse(req.body) });
      if (req.method === 'PATCH' && widget) return json(res, 200, { ...widget, ...JSON.parse(req.body) });
      if (req.method === 'DELETE' && widget) return json(res, 200, { id: widget.id, deleted: true });
      json(res, 404, { message: 'no such widget' });
    });
    const registry = new DefinitionRegistry([parseDefinition(YAML, 'widgetco.yaml')]);
    h = await startHarness(
      { CES_UPSTREAM_OVERRIDES: JSON.stringify({ widgetco: server.url }), CES_SYNC_POLL_MS: '20' },
      { registry },
    );
    token = await h.token();
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: { workspace_name: 'default', connector_type: 'widgetco', credentials: { key: 'k' } },
    });
    assert.equal(res.status, 200, res.body);
    id = res.json.id;
  });

  after(async () => {
    await h?.deps.worker.stop();
    await h?.close();
    await server?.close();
  });

  test('list writes the members on every record; the keyset paginator reads the provider’s id', async () => {
    const first = await exec('list', {});
    assert.equal(first.status, 200, first.body);
    assert.deepEqual(first.json.result, WIDGETS.slice(0, 2).map(written));
    assert.equal(first.json.connector_metadata.has_next_page, true);
    const second = await exec('list', { cursor: first.json.connector_metadata.end_cursor });
    assert.equal(second.status, 200, second.body);
    assert.deepEqual(second.json.result, [written(WIDGETS[2] as (typeof WIDGETS)[number])]);
    assert.equal(server.seen.filter((r) => r.url === '/widgets?after=102').length, 1);
  });

  test('select_fields picks from the written record', async () => {
    const res = await exec('list', {}, { select_fields: ['id', 'database_id', 'owner.key'] });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.json.result, [
      { id: 'W_101', database_id: 101, owner: { key: 'k1' } },
      { id: 'W_102', database_id: 102, owner: { key: null } },
    ]);
  });

  test('get takes the entity’s members; create its own none; update its own; delete none', async () => {
    const got = await exec('get', { id: 103 });
    assert.equal(got.status, 200, got.body);
    assert.deepEqual(got.json.result, written(WIDGETS[2] as (typeof WIDGETS)[number]));
    const created = await exec('create', { name: 'new' });
    assert.equal(created.status, 200, created.body);
    assert.deepEqual(created.json.result, { id: 104, node_id: 'W_104', name: 'new' });
    const updated = await exec('update', { id: 101, name: 'renamed' });
    assert.equal(updated.status, 200, updated.body);
    assert.deepEqual(updated.json.result, { ...WIDGETS[0], id: 'W_101', name: 'renamed' });
    const deleted = await exec('delete', { id: 102 });
    assert.equal(deleted.status, 200, deleted.body);
    assert.deepEqual(deleted.json.result, { id: 102, deleted: true });
  });

  test('the Context Store keys, indexes and answers the written record', async () => {
    await h.deps.worker.start();
    const state = await waitFor('widgets Ready', async () => {
      const s = await entityState(h, token, id, 'widgets');
      return s?.status === 'Ready' ? s : undefined;
    });
    assert.equal(state.entity_count, 3);
    const res = await exec('search', { query: { filter: { eq: { id: 'W_102' } } } });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.json.result, [written(WIDGETS[1] as (typeof WIDGETS)[number])]);
    const byNumber = await exec('search', {
      query: { filter: { eq: { number: '3' } } },
      fields: ['database_id'],
    });
    assert.equal(byNumber.status, 200, byNumber.body);
    assert.deepEqual(byNumber.json.result, [{ database_id: 103 }]);
  });
});

describe('record_fields: conversions', () => {
  test('to string, integer, number and boolean; what cannot convert is null', () => {
    const cases: Array<[unknown, 'string' | 'integer' | 'number' | 'boolean' | undefined, unknown]> = [
      [42, 'string', '42'],
      [1.5, 'string', '1.5'],
      ['x', 'string', 'x'],
      [true, 'string', 'true'],
      [{ a: 1 }, 'string', null],
      ['42', 'integer', 42],
      ['-7', 'integer', -7],
      [42, 'integer', 42],
      [4.2, 'integer', null],
      ['4.2', 'integer', null],
      ['042', 'integer', null],
      ['12345678901234567890', 'integer', null],
      ['4.25', 'number', 4.25],
      ['1e3', 'number', 1000],
      [' 1', 'number', null],
      ['true', 'boolean', true],
      ['false', 'boolean', false],
      [1, 'boolean', null],
      [null, 'string', null],
      [undefined, undefined, null],
      [[1], undefined, [1]],
    ];
    for (const [value, type, expected] of cases)
      assert.deepEqual(convert(value, type), expected, `${JSON.stringify(value)} as ${type}`);
  });
});

describe('record_fields: load-time checks', () => {
  const load = (entity: string) =>
    parseDefinition(testDefinitionYaml('6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f', 'widgetco', entity), 'w.yaml');
  const entity = (fields: string, actionFields = '') => `  - name: widgets
    description: Widgets.
    primary_key: [id]
    record_fields: ${fields}
    actions:
      list:
        description: Widgets.
        request: { method: GET, path: /widgets }
      delete:
        description: Removes one.
        params: { id: { type: string, required: true, description: Its id. } }
        request: { method: DELETE, path: "/widgets/{id}" }
${actionFields}`;
  const F = (from: string, type = '') => `{ from: ${from}, description: D.${type ? `, type: ${type}` : ''} }`;

  test('a valid declaration loads', () => {
    const def = load(entity(`{ id: ${F('[node_id]')}, a.b.c: ${F('[x, "0"]', 'integer')} }`));
    assert.deepEqual(Object.keys(def.entities[0]?.record_fields ?? {}), ['id', 'a.b.c']);
  });

  test('refuses what could not be written, naming where', () => {
    const refused: Array<[string, RegExp]> = [
      [entity(`{ a: ${F('[x]')}, a.b: ${F('[y]')} }`), /record_fields\/a\.b: 'a' is written too/],
      [entity(`{ __proto__.x: ${F('[x]')} }`), /record_fields\/__proto__\.x: names a prototype member/],
      [entity(`{ a: ${F('[]')} }`), /record_fields\/a\/from/],
      [entity(`{ a: ${F('[""]')} }`), /record_fields\/a\/from\/0/],
      [entity(`{ a: ${F('[x]', 'date')} }`), /record_fields\/a\/type/],
      [entity(`{ "a..b": ${F('[x]')} }`), /record_fields/],
      [entity(`{ a.b.c.d.e.f.g.h.i: ${F('[x]')} }`), /record_fields/],
      [entity(`{ "a b": ${F('[x]')} }`), /record_fields/],
      [entity(`{ a: { from: [x] } }`), /record_fields\/a.*description/],
      [
        entity(`{ a: ${F('[x]')} }`).replace(
          'request: { method: DELETE',
          `record_fields: { a: ${F('[x]')} }\n        request: { method: DELETE`,
        ),
        /actions\/delete\/record_fields: a delete answers no records/,
      ],
    ];
    for (const [yaml, message] of refused) assert.throws(() => load(yaml), message, yaml);
  });
});
