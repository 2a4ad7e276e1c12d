import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { assertError, errorFields } from './assertions.ts';

/** The reference WorkspaceGetResponse / WorkspaceListItem fields, all required. */
const WORKSPACE_FIELDS = [
  'cache_enabled',
  'color',
  'created_at',
  'id',
  'name',
  'organization_id',
  'status',
  'tombstone',
  'updated_at',
  'visibility',
];
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Ws {
  id: string;
  name: string;
  organization_id: string;
  status: string;
  cache_enabled: boolean | null;
}

function assertWorkspaceShape(ws: Record<string, unknown>, orgId: string): void {
  assert.deepEqual(Object.keys(ws).sort(), WORKSPACE_FIELDS, JSON.stringify(ws));
  assert.match(String(ws.id), UUID_RE);
  assert.equal(typeof ws.name, 'string');
  assert.equal(ws.organization_id, orgId);
  assert.ok(ws.status === 'active' || ws.status === 'inactive');
  assert.ok(ws.cache_enabled === null || typeof ws.cache_enabled === 'boolean');
  assert.equal(ws.tombstone, false);
  assert.ok(ws.visibility === 'shared' || ws.visibility === 'private');
  assert.ok(ws.color === null || typeof ws.color === 'string');
  for (const k of ['created_at', 'updated_at']) {
    assert.ok(!Number.isNaN(Date.parse(String(ws[k]))), `${k} is not a date-time`);
    assert.match(String(ws[k]), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  }
}

describe('workspaces', () => {
  let h: Harness;
  let token: string;
  let other: { organizationId: string; token: string };

  before(async () => {
    h = await startHarness();
    token = await h.token();
    other = await h.otherOrg();
  });
  after(() => h.close());

  const get = (url: string, t = token) => h.inject({ method: 'GET', url, token: t });
  const put = (id: string, body: unknown, t = token) =>
    h.inject({ method: 'PUT', url: `/api/v1/workspaces/${id}`, token: t, body });
  const del = (id: string, t = token) =>
    h.inject({ method: 'DELETE', url: `/api/v1/workspaces/${id}`, token: t });
  const names = (res: InjectResult) => res.json.data.map((w: Ws) => w.name) as string[];

  /** Workspaces come into being through the scoped-token mint, as in the reference service. */
  const create = async (name: string, t = token): Promise<Ws> => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token: t,
      body: { workspace_name: name },
    });
    assert.equal(res.status, 200, res.body);
    const info = await h.inject({
      method: 'GET',
      url: '/api/v1/account/applications/scoped-token/info',
      token: res.json.token,
    });
    const ws = await get(`/api/v1/workspaces/${info.json.workspace_id}`, t);
    assert.equal(ws.status, 200, ws.body);
    return ws.json as Ws;
  };

  describe('list', () => {
    test('records have exactly the reference fields; the bootstrap `default` workspace is there', async () => {
      const res = await get('/api/v1/workspaces');
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(Object.keys(res.json).sort(), ['data', 'next']);
      assert.ok(res.json.data.length >= 1);
      for (const ws of res.json.data) assertWorkspaceShape(ws, h.boot.organization_id);
      const def = res.json.data.find((w: Ws) => w.name === 'default');
      assert.equal(def?.id, h.boot.workspace_id);
      assert.equal(def?.status, 'active');
    });

    test('name_contains is a case-insensitive partial match', async () => {
      await create('Zeta Marketing');
      await create('zeta-sales');
      await create('Omega');
      const res = await get('/api/v1/workspaces?name_contains=ZETA');
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(names(res).sort(), ['Zeta Marketing', 'zeta-sales']);
      const mid = await get('/api/v1/workspaces?name_contains=mArKeT');
      assert.deepEqual(names(mid), ['Zeta Marketing']);
      const none = await get('/api/v1/workspaces?name_contains=nothing-like-this');
      assert.deepEqual(none.json, { data: [], next: null });
    });

    test('name_contains matches % and _ literally', async () => {
      await create('lit_under');
      await create('litXunder');
      await create('100%-done');
      await create('1000-done');
      const underscore = await get(`/api/v1/workspaces?name_contains=${encodeURIComponent('t_u')}`);
      assert.deepEqual(names(underscore), ['lit_under']);
      const percent = await get(`/api/v1/workspaces?name_contains=${encodeURIComponent('0%')}`);
      assert.deepEqual(names(percent), ['100%-done']);
      const onlyPercent = await get(`/api/v1/workspaces?name_contains=${encodeURIComponent('%')}`);
      assert.deepEqual(names(onlyPercent), ['100%-done']);
      const backslash = await get(`/api/v1/workspaces?name_contains=${encodeURIComponent('\\')}`);
      assert.equal(backslash.status, 200, backslash.body);
      assert.deepEqual(names(backslash), []);
    });

    test('limit must be 1..100', async () => {
      for (const limit of ['0', '101', '-1', 'ten', '1.5']) {
        const res = await get(`/api/v1/workspaces?limit=${limit}`);
        assertError(res, 422, 'VALIDATION_ERROR');
        assert.ok(errorFields(res).includes('query.limit'), res.body);
      }
      for (const limit of [1, 100]) {
        const res = await get(`/api/v1/workspaces?limit=${limit}`);
        assert.equal(res.status, 200, res.body);
        assert.ok(res.json.data.length <= limit);
      }
      const one = await get('/api/v1/workspaces?limit=1');
      assert.equal(one.json.data.length, 1);
      assert.match(String(one.json.next), /cursor=/);
    });

    test('an unknown status is a 422; an unknown query parameter is ignored and named', async () => {
      const status = await get('/api/v1/workspaces?status=deleted');
      assertError(status, 422, 'VALIDATION_ERROR');
      assert.ok(errorFields(status).includes('query.status'), status.body);
      const unknown = await get('/api/v1/workspaces?page=2');
      assert.equal(unknown.status, 200, unknown.body);
      assert.equal(unknown.headers['x-ces-ignored-fields'], 'query.page');
      assert.deepEqual(unknown.json, (await get('/api/v1/workspaces')).json);
    });

    test('cursor paging through 25 workspaces: 10, 10, 5, then next is null', async () => {
      const expected: string[] = [];
      for (let i = 0; i < 25; i++) {
        const name = `page-${String(i).padStart(2, '0')}`;
        expected.push(name);
        await create(name);
      }
      const seen: string[] = [];
      const sizes: number[] = [];
      let url: string | null = '/api/v1/workspaces?name_contains=page-&limit=10';
      while (url) {
        const res = await get(url);
        assert.equal(res.status, 200, res.body);
        sizes.push(res.json.data.length);
        seen.push(...names(res));
        if (res.json.next !== null) {
          assert.match(res.json.next, /^\/api\/v1\/workspaces\?/);
          assert.match(res.json.next, /cursor=/);
          assert.match(res.json.next, /name_contains=page-/);
          assert.match(res.json.next, /limit=10/);
        }
        url = res.json.next;
        assert.ok(sizes.length <= 3, 'paging does not end');
      }
      assert.deepEqual(sizes, [10, 10, 5]);
      assert.deepEqual(seen, expected, 'every workspace exactly once, in name order');
    });

    test('paging is stable when a workspace is added between pages', async () => {
      for (const n of ['kp-b', 'kp-d', 'kp-f']) await create(n);
      const first = await get('/api/v1/workspaces?name_contains=kp-&limit=2');
      assert.deepEqual(names(first), ['kp-b', 'kp-d']);
      await create('kp-a'); // sorts before the cursor: must not shift the next page
      await create('kp-e');
      const second = await get(first.json.next);
      assert.deepEqual(names(second), ['kp-e', 'kp-f']);
      assert.equal(second.json.next, null);
    });

    test('a cursor that is not one the endpoint returned is 422 INVALID_CURSOR', async () => {
      const bad = [
        'not-a-cursor',
        Buffer.from('{"n":1}').toString('base64url'),
        Buffer.from('[]').toString('base64url'),
        Buffer.from('null').toString('base64url'),
      ];
      for (const cursor of bad) {
        const res = await get(`/api/v1/workspaces?cursor=${encodeURIComponent(cursor)}`);
        assertError(res, 422, 'INVALID_CURSOR');
        assert.ok(errorFields(res).includes('cursor'), res.body);
      }
    });

    test('a hand-made or altered cursor (never returned by the endpoint) is 422 INVALID_CURSOR', async () => {
      for (const n of ['fc-a', 'fc-b', 'fc-c']) await create(n);
      const real = await get('/api/v1/workspaces?name_contains=fc-&limit=1');
      const cursor = new URL(real.json.next, 'http://x').searchParams.get('cursor') ?? '';
      const page2 = await get(`/api/v1/workspaces?name_contains=fc-&limit=1&cursor=${cursor}`);
      assert.deepEqual(names(page2), ['fc-b'], 'the real cursor works');
      // A real cursor whose position the client moved, keeping the signature.
      const [body, signature] = cursor.split('.');
      const decoded = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8'));
      const altered = `${Buffer.from(JSON.stringify({ ...decoded, n: 'fc-b' })).toString('base64url')}.${signature}`;
      assertError(
        await get(`/api/v1/workspaces?name_contains=fc-&limit=1&cursor=${altered}`),
        422,
        'INVALID_CURSOR',
      );
      // One built from scratch in the same encoding.
      const forged = Buffer.from(JSON.stringify({ n: 'fc-a', i: randomUUID() })).toString('base64url');
      assertError(await get(`/api/v1/workspaces?name_contains=fc-&cursor=${forged}`), 422, 'INVALID_CURSOR');
    });

    test('status filters active and inactive workspaces', async () => {
      const ws = await create('to-deactivate');
      const upd = await put(ws.id, { status: 'inactive' });
      assert.equal(upd.status, 200, upd.body);
      assert.equal(upd.json.status, 'inactive');

      const inactive = await get('/api/v1/workspaces?status=inactive&limit=100');
      assert.ok(names(inactive).includes('to-deactivate'), inactive.body);
      assert.ok(inactive.json.data.every((w: Ws) => w.status === 'inactive'));
      const active = await get('/api/v1/workspaces?status=active&limit=100');
      assert.ok(!names(active).includes('to-deactivate'));
      assert.ok(active.json.data.every((w: Ws) => w.status === 'active'));
      assert.ok(names(active).includes('default'));

      const back = await put(ws.id, { status: 'active' });
      assert.equal(back.json.status, 'active');
      const again = await get('/api/v1/workspaces?status=inactive&limit=100');
      assert.ok(!names(again).includes('to-deactivate'));
    });
  });

  test('stats count active and inactive workspaces', async () => {
    const before = await get('/api/v1/workspaces/stats');
    assert.equal(before.status, 200, before.body);
    assert.deepEqual(Object.keys(before.json).sort(), ['active_count', 'inactive_count', 'total_count']);
    assert.equal(before.json.total_count, before.json.active_count + before.json.inactive_count);

    const a = await create('stats-a');
    await create('stats-b');
    await put(a.id, { status: 'inactive' });
    const after = await get('/api/v1/workspaces/stats');
    assert.equal(after.json.active_count, before.json.active_count + 1);
    assert.equal(after.json.inactive_count, before.json.inactive_count + 1);
    assert.equal(after.json.total_count, before.json.total_count + 2);

    const all = await get('/api/v1/workspaces?limit=100');
    assert.equal(all.json.next, null, 'fewer than 100 workspaces in this org');
    assert.equal(all.json.data.length, after.json.total_count);
    assert.equal(all.json.data.filter((w: Ws) => w.status === 'inactive').length, after.json.inactive_count);

    const theirs = await get('/api/v1/workspaces/stats', other.token);
    assert.deepEqual(theirs.json, { active_count: 1, inactive_count: 0, total_count: 1 });
  });

  describe('get', () => {
    test('by id: the record', async () => {
      const res = await get(`/api/v1/workspaces/${h.boot.workspace_id}`);
      assert.equal(res.status, 200, res.body);
      assertWorkspaceShape(res.json, h.boot.organization_id);
      assert.equal(res.json.name, 'default');
    });

    test('an unknown uuid is 404 WORKSPACE_NOT_FOUND; a non-uuid is 422', async () => {
      assertError(await get(`/api/v1/workspaces/${randomUUID()}`), 404, 'WORKSPACE_NOT_FOUND');
      const bad = await get('/api/v1/workspaces/not-a-uuid');
      assertError(bad, 422, 'VALIDATION_ERROR');
      assert.ok(errorFields(bad).includes('params.workspace_id'), bad.body);
    });

    test("another organization's workspace is 404, exactly like an unknown id", async () => {
      const unknown = await get(`/api/v1/workspaces/${randomUUID()}`);
      const foreign = await get(`/api/v1/workspaces/${h.boot.workspace_id}`, other.token);
      assertError(foreign, 404, 'WORKSPACE_NOT_FOUND');
      assert.equal(
        foreign.json.message.replace(h.boot.workspace_id, '<id>'),
        unknown.json.message.replace(/[0-9a-f-]{36}/, '<id>'),
      );
    });
  });

  describe('update', () => {
    test('rename, status and cache_enabled', async () => {
      const ws = await create('rename-me');
      const renamed = await put(ws.id, { name: 'renamed' });
      assert.equal(renamed.status, 200, renamed.body);
      assertWorkspaceShape(renamed.json, h.boot.organization_id);
      assert.equal(renamed.json.name, 'renamed');
      assert.equal(renamed.json.id, ws.id);
      assert.ok(Date.parse(renamed.json.updated_at) >= Date.parse(renamed.json.created_at));
      assert.equal((await get(`/api/v1/workspaces/${ws.id}`)).json.name, 'renamed');
      assert.deepEqual(names(await get('/api/v1/workspaces?name_contains=rename-me')), []);

      const cached = await put(ws.id, { cache_enabled: true });
      assert.equal(cached.json.cache_enabled, true);
      assert.equal(cached.json.name, 'renamed', 'omitted fields are kept');
      const off = await put(ws.id, { cache_enabled: false });
      assert.equal(off.json.cache_enabled, false);
      const inherit = await put(ws.id, { cache_enabled: null });
      assert.equal(inherit.json.cache_enabled, null);

      const both = await put(ws.id, { status: 'inactive', name: 'renamed-again' });
      assert.equal(both.json.status, 'inactive');
      assert.equal(both.json.name, 'renamed-again');
      const fetched = await get(`/api/v1/workspaces/${ws.id}`);
      assert.equal(fetched.json.status, 'inactive');
      assert.equal(fetched.json.name, 'renamed-again');
    });

    test('renaming to its own name is fine; to an existing name is 409 CONFLICT', async () => {
      const a = await create('dup-a');
      await create('dup-b');
      const same = await put(a.id, { name: 'dup-a' });
      assert.equal(same.status, 200, same.body);
      assertError(await put(a.id, { name: 'dup-b' }), 409, 'CONFLICT');
      assertError(await put(a.id, { name: 'default' }), 409, 'CONFLICT');
      assert.equal((await get(`/api/v1/workspaces/${a.id}`)).json.name, 'dup-a');
    });

    test('the default workspace cannot be renamed (409) but can change cache_enabled', async () => {
      assertError(await put(h.boot.workspace_id, { name: 'not-default' }), 409, 'CONFLICT');
      assert.equal((await get(`/api/v1/workspaces/${h.boot.workspace_id}`)).json.name, 'default');
      const cache = await put(h.boot.workspace_id, { cache_enabled: true });
      assert.equal(cache.status, 200, cache.body);
      assert.equal(cache.json.name, 'default');
    });

    test('bad values and empty names are 422 naming the field', async () => {
      const ws = await create('strict-body');
      const cases: Array<[unknown, string]> = [
        [{ color: 'red', status: 'archived' }, 'body.status'],
        [{ status: 'archived' }, 'body.status'],
        [{ cache_enabled: 'yes' }, 'body.cache_enabled'],
        [{ name: '' }, 'body.name'],
        [{ name: 'x'.repeat(201) }, 'body.name'],
      ];
      for (const [body, field] of cases) {
        const res = await put(ws.id, body);
        assertError(res, 422, 'VALIDATION_ERROR');
        assert.ok(errorFields(res).includes(field), `${JSON.stringify(body)}: ${res.body}`);
      }
      assert.equal((await get(`/api/v1/workspaces/${ws.id}`)).json.name, 'strict-body');
    });

    test('an unknown member is ignored, changes nothing, and is named in x-ces-ignored-fields', async () => {
      const ws = await create('open-body');
      const res = await put(ws.id, { color: 'red' });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers['x-ces-ignored-fields'], 'body.color');
      assert.equal(res.json.color, null);
      assert.equal(res.json.name, 'open-body');
    });

    test('an unknown id is 404', async () => {
      assertError(await put(randomUUID(), { name: 'ghost' }), 404, 'WORKSPACE_NOT_FOUND');
    });
  });

  describe('delete', () => {
    test('returns {id, deleted_at}; afterwards the workspace is gone', async () => {
      const ws = await create('delete-me');
      const res = await del(ws.id);
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(Object.keys(res.json).sort(), ['deleted_at', 'id']);
      assert.equal(res.json.id, ws.id);
      assert.ok(!Number.isNaN(Date.parse(res.json.deleted_at)));
      assertError(await get(`/api/v1/workspaces/${ws.id}`), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await del(ws.id), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await put(ws.id, { name: 'zombie' }), 404, 'WORKSPACE_NOT_FOUND');
      assert.deepEqual(names(await get('/api/v1/workspaces?name_contains=delete-me')), []);
      // The name is free again.
      const again = await create('delete-me');
      assert.notEqual(again.id, ws.id);
    });

    test('the default workspace cannot be deleted (409)', async () => {
      assertError(await del(h.boot.workspace_id), 409, 'CONFLICT');
      assert.equal((await get(`/api/v1/workspaces/${h.boot.workspace_id}`)).status, 200);
    });

    test('an unknown id is 404; a non-uuid is 422', async () => {
      assertError(await del(randomUUID()), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await del('nope'), 422, 'VALIDATION_ERROR');
    });
  });

  describe('tenant isolation', () => {
    test('another organization cannot see, update or delete this organization’s workspaces (404)', async () => {
      const ws = await create('private-to-a');
      assertError(await get(`/api/v1/workspaces/${ws.id}`, other.token), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await put(ws.id, { name: 'hijacked' }, other.token), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await put(ws.id, { status: 'inactive' }, other.token), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await del(ws.id, other.token), 404, 'WORKSPACE_NOT_FOUND');
      assertError(await del(h.boot.workspace_id, other.token), 404, 'WORKSPACE_NOT_FOUND');
      const mine = await get(`/api/v1/workspaces/${ws.id}`);
      assert.equal(mine.status, 200);
      assert.equal(mine.json.name, 'private-to-a');
      assert.equal(mine.json.status, 'active');
    });

    test('listing in organization B never shows organization A’s workspaces', async () => {
      await create('only-in-a');
      const theirs = await create('only-in-b', other.token);
      assert.equal(theirs.organization_id, other.organizationId);

      const b = await get('/api/v1/workspaces?limit=100', other.token);
      assert.equal(b.status, 200, b.body);
      assert.deepEqual(names(b).sort(), ['default', 'only-in-b']);
      for (const ws of b.json.data) assertWorkspaceShape(ws, other.organizationId);
      assert.deepEqual(names(await get('/api/v1/workspaces?name_contains=only-in-a', other.token)), []);

      const a = await get('/api/v1/workspaces?name_contains=only-in', token);
      assert.deepEqual(names(a), ['only-in-a']);
      // Both organizations have a `default`; each sees its own.
      const aDefault = (await get('/api/v1/workspaces?name_contains=default')).json.data;
      const bDefault = (await get('/api/v1/workspaces?name_contains=default', other.token)).json.data;
      assert.equal(aDefault.length, 1);
      assert.equal(bDefault.length, 1);
      assert.notEqual(aDefault[0].id, bDefault[0].id);
    });

    test("a cursor from organization A's listing does not reveal A's workspaces to B", async () => {
      const first = await get('/api/v1/workspaces?limit=1');
      const cursor = new URL(first.json.next, 'http://x').searchParams.get('cursor');
      const res = await get(`/api/v1/workspaces?limit=100&cursor=${cursor}`, other.token);
      if (res.status === 200) {
        for (const ws of res.json.data) assert.equal(ws.organization_id, other.organizationId);
      } else {
        assertError(res, 422, 'INVALID_CURSOR');
      }
    });
  });
});
