// Skills: agent-readable docs at /api/v1/skills, /skills/search and /skills/docs, every answer validated against
// the reference's schemas (SkillListResponse, SkillDocsResponse). What the docs say is checked against the data
// they are generated from: the connector definitions, the error table, the search checker.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { actionNames, COLLECTION_ACTIONS, type ConnectorDefinition } from '../../src/connectors/schema.ts';
import { SEARCH_LIMITS } from '../../src/context-store/query.ts';
import { FIELD_OPERATORS } from '../../src/core/skills/connector-search.ts';
import { allSkills, skillMarkdown } from '../../src/core/skills/markdown.ts';
import { STATUS_BY_CODE, WIRE_CODES } from '../../src/http/errors.ts';
import { domainError } from '../helpers/domain-error.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { assertMatchesReference } from '../helpers/reference-spec.ts';
import { assertError } from './assertions.ts';

const LIST = '/api/v1/skills';
const SEARCH = '/api/v1/skills/search';
const DOCS = '/api/v1/skills/docs';
const STATIC_IDS = ['ces:authentication', 'ces:paging', 'ces:search-dsl', 'ces:errors'];

type Block = {
  type: string;
  text?: string;
  items?: string[];
  code?: string;
  headers?: string[];
  rows?: string[][];
};
const blockText = (b: Block) =>
  [b.text, ...(b.items ?? []), b.code, ...(b.headers ?? []), ...(b.rows ?? []).flat()]
    .filter(Boolean)
    .join('\n');

/** The table that follows the heading `title` in `content`. */
function tableAfter(content: Block[], title: string): string[][] {
  const at = content.findIndex((b) => b.type === 'heading' && b.text === title);
  assert.ok(at >= 0, `no heading ${title}`);
  const t = content.slice(at + 1).find((b) => b.type === 'table' || b.type === 'heading');
  return t?.type === 'table' ? t.rows! : [];
}

describe('skills', () => {
  let h: Harness;
  let token: string;
  let github: ConnectorDefinition;
  let githubId: string;

  before(async () => {
    h = await startHarness({ CES_SYNC_ENABLED: 'false' });
    token = await h.token();
    github = h.deps.registry.bySlug('github')!;
    githubId = `connector-source:${github.id}`;
  });
  after(() => h.close());

  const get = (url: string, t: string | null = token) =>
    h.inject({ method: 'GET', url, ...(t === null ? {} : { token: t }) });
  const docs = async (id: string, section?: string) => {
    const q = new URLSearchParams({ id, ...(section ? { section } : {}) });
    const res = await get(`${DOCS}?${q}`);
    assert.equal(res.status, 200, res.body);
    assertMatchesReference('GET', DOCS, 200, res.json);
    return res.json as { section_id: string | null; outline: Array<{ id: string }>; content: Block[] };
  };
  /** Every page of a list or search, following next_cursor; each page checked against the reference. */
  const allPages = async (base: string, path: string, limit: number) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 100; n++) {
      const sep = base.includes('?') ? '&' : '?';
      const res = await get(
        `${base}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(res.status, 200, res.body);
      assertMatchesReference('GET', path, 200, res.json);
      assert.ok(res.json.data.length <= limit);
      ids.push(...res.json.data.map((s: { id: string }) => s.id));
      cursor = res.json.next_cursor;
      if (cursor === null) return ids;
      assert.ok(res.json.data.length === limit, 'a page before the last is full');
    }
    throw new Error('the cursor never ended');
  };

  test('lists every skill across pages: static ones first, then one per connector type by name', async () => {
    const expected = [...STATIC_IDS, ...h.deps.registry.all().map((d) => `connector-source:${d.id}`)];
    for (const limit of [1, 3, 100]) {
      const ids = await allPages(LIST, LIST, limit);
      assert.deepEqual(ids, expected, `limit ${limit}`);
      assert.equal(new Set(ids).size, ids.length, 'no duplicates');
    }
    const first = await get(LIST);
    assert.equal(first.json.data.length, Math.min(20, expected.length), 'default limit 20');
    const all = (await get(`${LIST}?limit=100`)).json.data;
    for (const s of all) {
      assert.match(s.version, /^sha256:[0-9a-f]{16}$/);
      if (s.kind === 'static') {
        assert.deepEqual(s.freshness, { state: 'static', checked_at: null });
        continue;
      }
      const def = h.deps.registry.byId(s.id.slice('connector-source:'.length))!;
      assert.equal(s.kind, 'connector_source');
      assert.equal(s.title, def.name);
      assert.equal(s.freshness.state, 'live');
      assert.ok(Date.parse(s.freshness.checked_at) <= Date.now());
      assert.ok(s.provenance.includes(def.id) && s.provenance.includes(def.slug));
      for (const tag of [def.slug, ...def.entities.map((e) => e.name)]) assert.ok(s.tags.includes(tag), tag);
    }
    assert.deepEqual(
      allSkills(h.deps).map((s) => s.id),
      expected,
      'the function other transports use lists the same skills',
    );
  });

  test('search ranks by words in title, tags, summary and content, case-insensitively', async () => {
    const top = async (query: string) => {
      const res = await get(`${SEARCH}?query=${encodeURIComponent(query)}`);
      assert.equal(res.status, 200, res.body);
      assertMatchesReference('GET', SEARCH, 200, res.json);
      return res.json.data.map((s: { id: string }) => s.id) as string[];
    };
    assert.equal((await top('github issues'))[0], githubId);
    assert.equal((await top('GitHub Issue'))[0], githubId, 'case and plural do not matter');
    assert.equal((await top('fuzzy'))[0], 'ces:search-dsl');
    assert.equal((await top('scoped token'))[0], 'ces:authentication');
    assert.equal((await top('INVALID_CURSOR error'))[0], 'ces:errors');
    assert.deepEqual(await top('zzqqxv'), []);
    // Paging a search gives the same order as one big page, whatever the page size.
    const whole = await top('search');
    assert.ok(whole.length > 5);
    assert.deepEqual(await allPages(`${SEARCH}?query=search`, SEARCH, 2), whole.slice(0, 20));
    assert.deepEqual(await allPages(`${SEARCH}?query=search`, SEARCH, 100), whole);
    // A cursor continues only its own query, and a list cursor is not a search cursor.
    const page = (await get(`${SEARCH}?query=search&limit=1`)).json;
    assertError(
      await get(`${SEARCH}?query=github&cursor=${encodeURIComponent(page.next_cursor)}`),
      422,
      'INVALID_CURSOR',
    );
    const listCursor = (await get(`${LIST}?limit=1`)).json.next_cursor;
    assertError(
      await get(`${SEARCH}?query=search&cursor=${encodeURIComponent(listCursor)}`),
      422,
      'INVALID_CURSOR',
    );
  });

  test('the GitHub skill: guidance and outline, then every section', async () => {
    const root = await docs(githubId);
    assert.equal(root.section_id, null);
    const outline = root.outline.map((s) => s.id);
    for (const id of ['overview', 'entities', 'paging', 'search', 'examples', 'rate_limits'])
      assert.ok(outline.includes(id), id);
    for (const e of github.entities) assert.ok(outline.includes(`entities.${e.name}`), e.name);
    const guidance = root.content.map(blockText).join('\n');
    assert.match(guidance, /context_store_search/);
    assert.match(guidance, /inspect/);
    const texts = new Map<string, string>();
    for (const id of outline) {
      const section = await docs(githubId, id);
      assert.equal(section.section_id, id);
      assert.ok(section.content.length > 0, id);
      texts.set(id, section.content.map(blockText).join('\n'));
    }
    assert.match(texts.get('overview')!, /api\.github\.com/);
    assert.match(texts.get('rate_limits')!, new RegExp(`\\b${github.max_concurrency}\\b`));
    assert.match(texts.get('paging')!, /params\.after/, 'the definition’s cursor alias');
  });

  test('entity sections document every action and param of the definition as declared', async () => {
    for (const entity of github.entities) {
      const { content } = await docs(githubId, `entities.${entity.name}`);
      for (const name of actionNames(entity)) {
        const action = entity.actions[name]!;
        const rows = tableAfter(content, `${entity.name}.${name}`);
        const params = Object.entries(action.params ?? {});
        const paginated = action.pagination !== undefined && action.pagination.type !== 'none';
        // Every collection takes limit, the page size (its own param where the provider names it so).
        const limit = COLLECTION_ACTIONS.includes(name) && !Object.hasOwn(action.params ?? {}, 'limit');
        assert.deepEqual(
          rows.map((r) => r[0]),
          [...params.map(([p]) => p), ...(limit ? ['limit'] : []), ...(paginated ? ['cursor'] : [])],
          `${entity.name}.${name}`,
        );
        for (const [p, def] of params) {
          const row = rows.find((r) => r[0] === p)!;
          assert.equal(row[2], def.required ? 'yes' : 'no', `${entity.name}.${name}.${p} required`);
          if (def.default !== undefined) assert.equal(row[3], String(def.default));
          for (const v of def.enum ?? []) assert.ok(row[4]!.includes(String(v)), `${p} enum ${v}`);
        }
      }
    }
  });

  test('the search section lists each indexed field with the operators of its type', async () => {
    const { content } = await docs(githubId, 'search');
    const indexed = github.entities.filter((e) => e.context_store);
    assert.ok(indexed.length > 0);
    for (const entity of indexed) {
      const rows = tableAfter(content, `Searching ${entity.name}`);
      for (const field of entity.context_store!.fields) {
        const row = rows.find((r) => r[0] === field.name);
        assert.ok(row, `${entity.name}.${field.name}`);
        const ops = row[2]!.split(', ');
        // The README's operator table, by field type.
        if (field.type === 'text') assert.deepEqual(ops, ['like', 'fuzzy', 'keyword']);
        if (field.type === 'string')
          for (const op of ['eq', 'in', 'like', 'fuzzy', 'keyword']) assert.ok(ops.includes(op));
        if (field.type === 'timestamp' || field.type === 'integer') {
          assert.deepEqual(ops, ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in']);
          assert.equal(row[3], 'yes', 'sortable');
        }
        if (field.type === 'array') assert.deepEqual(ops, [field.items ? 'contains' : 'any']);
      }
    }
  });

  test('examples are complete execute bodies of real entities and actions', async () => {
    const { content } = await docs(githubId, 'examples');
    const bodies = content.filter((b) => b.type === 'code').map((b) => JSON.parse(b.code!));
    assert.ok(bodies.length >= github.entities.length);
    for (const body of bodies) {
      const entity = github.entities.find((e) => e.name === body.entity);
      assert.ok(entity, body.entity);
      if (body.action === 'search') {
        assert.ok(entity.context_store);
        continue;
      }
      const action = entity.actions[body.action as 'list' | 'get']!;
      assert.ok(action, `${body.entity}.${body.action}`);
      if ('cursor' in body.params) continue;
      for (const [p, def] of Object.entries(action.params ?? {}))
        if (def.required) assert.ok(p in body.params, `${body.entity}.${body.action} needs ${p}`);
    }
  });

  test('static skills agree with the code they describe', async () => {
    const codes = (await docs('ces:errors', 'codes')).content.find((b) => b.type === 'table')!.rows!;
    assert.deepEqual(codes.map((r) => r[0]).sort(), [...WIRE_CODES].sort());
    for (const [code, status] of codes)
      assert.equal(Number(status), STATUS_BY_CODE[code as 'NOT_FOUND'], code);
    const operators = (await docs('ces:search-dsl', 'operators')).content.find((b) => b.type === 'table')!;
    assert.deepEqual(
      operators.rows!.flatMap((r) => r[0]!.split(', ')).sort(),
      [...FIELD_OPERATORS, 'and', 'or', 'not'].sort(),
      'the DSL skill documents exactly the operators the connector skills probe',
    );
    const limits = (await docs('ces:search-dsl', 'limits')).content.find((b) => b.type === 'table')!;
    assert.ok(limits.rows!.some((r) => r[1] === String(SEARCH_LIMITS.conditions)));
    const auth = (await docs('ces:authentication', 'application-token')).content.map(blockText).join('\n');
    assert.match(auth, /\/api\/v1\/account\/applications\/token/);
  });

  test('markdown for other transports: a whole skill or one section', () => {
    const md = skillMarkdown(h.deps, githubId);
    assert.ok(md.startsWith(`# GitHub\nSkill ID: ${githubId}\n`));
    for (const title of ['## Overview', '## Entities and actions', '## Context Store search', '## Outline'])
      assert.ok(md.includes(title), title);
    assert.ok(md.includes('| owner | string | yes |'));
    assert.ok(skillMarkdown(h.deps, githubId, 'entities.issues').includes('#### issues.list'));
    assert.throws(() => skillMarkdown(h.deps, 'connector-source:nope'), domainError('NOT_FOUND'));
    assert.throws(() => skillMarkdown(h.deps, githubId, 'nope'), domainError('NOT_FOUND'));
  });

  test('no secret reaches a skill; secret credential fields are named and marked, never given a value', async () => {
    const planted = `app-secret-${randomBytes(12).toString('hex')}`;
    const put = await h.inject({
      method: 'PUT',
      url: '/api/v1/oauth/credentials',
      token,
      body: { connector_type: 'hubspot', configuration: { client_id: 'skills-app', client_secret: planted } },
    });
    assert.equal(put.status, 200, put.body);
    const boot = JSON.parse(readFileSync(`${h.dataDir}/bootstrap-credentials.json`, 'utf8'));
    assert.equal(boot.client_secret, h.boot.client_secret, 'the bootstrap secret is where it should be');
    let text = '';
    for (const s of allSkills(h.deps)) {
      const root = await docs(s.id);
      text += JSON.stringify(root);
      for (const { id } of root.outline) text += JSON.stringify(await docs(s.id, id));
      text += skillMarkdown(h.deps, s.id);
    }
    for (const value of [planted, h.boot.client_secret, token, token.split('.')[2]!])
      assert.ok(!text.includes(value), 'a secret value reached the skills');
    // The docs do talk about secret fields, by name and marked secret.
    for (const def of h.deps.registry.all()) {
      const { content } = await docs(`connector-source:${def.id}`, 'overview');
      for (const option of def.credential_options) {
        const rows = tableAfter(content, option.title);
        for (const [name, field] of Object.entries(option.fields)) {
          const row = rows.find((r) => r[0] === name);
          assert.ok(row, `${def.slug} ${option.title} ${name}`);
          assert.equal(row[2], field.secret ? 'yes' : 'no');
        }
      }
    }
  });

  test('a token is required; a scoped token works in its own scope', async () => {
    for (const url of [LIST, `${SEARCH}?query=github`, `${DOCS}?id=ces:errors`]) {
      assertError(await get(url, null), 401, 'UNAUTHENTICATED');
    }
    const scoped = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: `skills-${randomUUID().slice(0, 8)}` },
    });
    assert.equal(scoped.status, 200, scoped.body);
    const st = scoped.json.token as string;
    const info = (await get('/api/v1/account/applications/scoped-token/info', st)).json;
    const own = await get(
      `${LIST}?workspace_id=${info.workspace_id}&organization_id=${info.organization_id}`,
      st,
    );
    assert.equal(own.status, 200, own.body);
    assert.deepEqual(
      own.json,
      (await get(LIST)).json,
      'skills hold no tenant data: the same for every caller',
    );
    assert.equal((await get(`${DOCS}?id=${githubId}&section=paging`, st)).status, 200);
    const defaultWs = (await h.deps.store.workspaces.getByName(h.boot.organization_id, 'default'))!;
    assertError(await get(`${LIST}?workspace_id=${defaultWs.id}`, st), 403, 'WORKSPACE_SCOPE_VIOLATION');
    assertError(await get(`${SEARCH}?query=x&workspace_id=${randomUUID()}`), 404, 'WORKSPACE_NOT_FOUND');
    const other = await h.otherOrg();
    assertError(await get(`${DOCS}?id=ces:errors&organization_id=${other.organizationId}`), 404, 'NOT_FOUND');
    const otherWs =
      (await h.deps.store.workspaces.getByName(other.organizationId, 'default'))?.id ?? randomUUID();
    assertError(await get(`${LIST}?workspace_id=${otherWs}`), 404, 'WORKSPACE_NOT_FOUND');
  });

  test('bad input: 422 in the one error body; unknown skill or section: 404', async () => {
    for (const limit of ['0', '101', 'x', '-1', '1.5']) {
      for (const base of [`${LIST}?`, `${SEARCH}?query=github&`]) {
        const res = await get(`${base}limit=${limit}`);
        assertError(res, 422, 'VALIDATION_ERROR');
        assertMatchesReference('GET', base.startsWith(SEARCH) ? SEARCH : LIST, 422, res.json);
      }
    }
    const page = (await get(`${LIST}?limit=2`)).json.next_cursor as string;
    const [body, mac] = page.split('.');
    const forged = `${Buffer.from(JSON.stringify({ o: 0, q: '' })).toString('base64url')}.${mac}`;
    const flipped = `${body}.${mac!.startsWith('A') ? 'B' : 'A'}${mac!.slice(1)}`;
    for (const cursor of ['garbage', flipped, forged]) {
      assertError(await get(`${LIST}?cursor=${encodeURIComponent(cursor)}`), 422, 'INVALID_CURSOR');
    }
    assertError(await get(SEARCH), 422, 'VALIDATION_ERROR');
    assertError(await get(`${SEARCH}?query=`), 422, 'VALIDATION_ERROR');
    assertError(await get(DOCS), 422, 'VALIDATION_ERROR');
    assertError(await get(`${LIST}?organization_id=not-a-uuid`), 422, 'VALIDATION_ERROR');
    assertError(await get(`${DOCS}?id=connector-source:${randomUUID()}`), 404, 'NOT_FOUND');
    assertError(await get(`${DOCS}?id=${githubId}&section=entities.nope`), 404, 'NOT_FOUND');
    const upper = await get(
      `${DOCS}?id=${githubId.toUpperCase().replace('CONNECTOR-SOURCE', 'connector-source')}`,
    );
    assert.equal(upper.status, 200, 'ids are UUIDs: either case');
  });
});
