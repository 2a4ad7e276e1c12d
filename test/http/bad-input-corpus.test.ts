import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ParamDefinition } from '../../src/connectors/schema.ts';
import { ERROR_CODES, type ErrorCode } from '../../src/core/errors.ts';
import { STATUS_BY_CODE } from '../../src/http/errors.ts';
import { type AnyUpstreamHarness, startWithAnyUpstream } from '../helpers/any-upstream.ts';
import type { InjectResult } from '../helpers/harness.ts';
import { assertError } from './assertions.ts';
import { type AppRoute, appRoutes } from './route-table.ts';

/**
 * Every route of the real route table (plugin routes included, so a route added later is swept too) against a
 * corpus of hostile and careless input: malformed and 10,000-level JSON, huge strings, NUL and non-Latin-1
 * characters, prototype-pollution keys, wrong types, CR/LF and URL syntax in values that become URL parts or
 * headers upstream — in bodies, path params, query strings and headers. Whatever the input: never a 5xx, every
 * error in the one documented body (its code's status, its request_id in the header), and the process keeps
 * answering /healthz. Connectors point at a catch-all upstream, so requests that pass validation go all the way.
 */

/** A raw JSON fragment inserted where a value goes. */
type Raw = { label: string; json: string };

const DEEP = 10_000;
const VALUES: Raw[] = [
  { label: `${DEEP}-level array`, json: `${'['.repeat(DEEP)}${']'.repeat(DEEP)}` },
  { label: `${DEEP}-level object`, json: `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}` },
  { label: '200 kB string', json: JSON.stringify('x'.repeat(200_000)) },
  { label: 'NUL', json: JSON.stringify('a\u0000b') },
  { label: 'non-Latin-1', json: JSON.stringify('\u202e\u4e00\u{1f600}\u00e9') },
  { label: 'lone surrogate', json: '"\\ud800x"' },
  { label: 'CR/LF', json: JSON.stringify('a\r\nX-Injected: yes') },
  { label: 'URL syntax', json: JSON.stringify('../../x?y=1#z') },
  { label: 'absolute URL', json: JSON.stringify('http://169.254.169.254/latest/') },
  { label: 'huge number', json: '1e400' },
  { label: 'negative fraction', json: '-1.5' },
  { label: 'big integer', json: '123456789012345678901234567890' },
  { label: 'true', json: 'true' },
  { label: 'null', json: 'null' },
  { label: 'array', json: '[1,"a",null,{}]' },
  { label: 'object', json: '{"k":"v"}' },
  { label: '__proto__ key', json: '{"__proto__":{"polluted":"yes"}}' },
  { label: 'constructor.prototype key', json: '{"constructor":{"prototype":{"polluted":"yes"}}}' },
];

const MALFORMED_BODIES: Array<{ label: string; payload: string | Buffer }> = [
  { label: 'truncated object', payload: '{"a": 1' },
  { label: 'trailing comma', payload: '{"a": 1,}' },
  { label: 'single quotes', payload: "{'a': 1}" },
  { label: 'bare word', payload: 'undefined' },
  { label: 'NUL byte', payload: '{"a":\u0000}' },
  { label: 'invalid UTF-8', payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { label: 'UTF-16 BOM', payload: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]) },
  { label: 'top-level array', payload: '[]' },
  { label: 'top-level string', payload: '"s"' },
  { label: 'top-level null', payload: 'null' },
  { label: 'top-level __proto__', payload: '{"__proto__":{"polluted":"yes"}}' },
  { label: 'top-level constructor.prototype', payload: '{"constructor":{"prototype":{"polluted":"yes"}}}' },
  { label: 'unicode-escaped __proto__', payload: '{"\\u005f_proto__":{"polluted":"yes"}}' },
  { label: `${DEEP}-level body`, payload: `${'['.repeat(DEEP)}${']'.repeat(DEEP)}` },
];

const QUERY_CASES = [
  '__proto__=1',
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  '%00=1',
  'x=%00',
  'x=%FF%FE',
  '=&&=',
  'x=%',
  `x=${'y'.repeat(3000)}`,
];
const QUERY_FIELD_VALUES = [
  '%00',
  '%FF',
  '%E4%B8%80%F0%9F%98%80',
  'z'.repeat(3000),
  '-1',
  '1e999',
  '%0D%0AX-Injected:%20yes',
  '..%2F..%2Fx',
];
const PARAM_VALUES = [
  '%00',
  '%FF',
  '%C3%A9',
  'x'.repeat(201),
  '..%2F..%2Fhealthz',
  '%0D%0AX-Injected:%20yes',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
];
const HEADER_CASES: Array<Record<string, string>> = [
  { 'x-organization-id': '__proto__' },
  { 'x-organization-id': '\u00e9\u00ff' },
  { 'x-organization-id': 'x'.repeat(5000) },
  { range: 'bytes=0-1\u00e9' },
  { range: 'bytes=99999999999999999999-' },
  { accept: 'text/html' },
  { 'x-forwarded-for': '1.2.3.4, ::1' },
  { 'content-encoding': 'gzip' },
];
const CONTENT_TYPES = [
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/json\u00e9',
];

/** Values in params that become path segments, query values, headers or body members upstream. */
const UPSTREAM_PART_VALUES: unknown[] = [
  'a\r\nX-Injected: yes',
  'a\nb',
  '../../../user',
  '..%2F..%2Fuser',
  'a?b=c&d=e#f',
  'a/b',
  'http://169.254.169.254/',
  '\u0000',
  '\u00e9\u4e00\u{1f600}',
  '',
  ' ',
  'x'.repeat(10_000),
  -1,
  1e308,
  true,
  null,
  ['a\r\nb'],
  { nested: 'a\r\nb' },
];

describe('bad-input corpus over every route', () => {
  let a: AnyUpstreamHarness;
  let routes: AppRoute[];
  let githubId: string;
  let workspaceId: string;
  let widgetToken: string;

  before(async () => {
    // Limits off: throttled answers are fine, but would stop the corpus reaching the handlers.
    a = await startWithAnyUpstream({
      CES_MAX_REQUESTS_PER_SECOND: '0',
      CES_TOKEN_FAILURES_PER_ADDRESS: '0',
      CES_TOKEN_FAILURES_PER_CLIENT: '0',
      CES_BODY_LIMIT_BYTES: String(4 * 1024 * 1024),
    });
    routes = await appRoutes(a.h.deps);
    githubId = a.connectors.get('github')!;
    // A workspace of its own for the workspace routes, so a rename cannot take `default` from the others.
    const scoped = await a.h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token: a.token,
      body: { workspace_name: 'corpus' },
    });
    assert.equal(scoped.status, 200, scoped.body);
    const list = await a.h.inject({
      method: 'GET',
      url: '/api/v1/workspaces?name_contains=corpus',
      token: a.token,
    });
    workspaceId = list.json.data[0].id;
    const widget = await a.h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/widget-token',
      token: a.token,
      body: { workspace_name: 'corpus', allowed_origin: 'https://app.example.com' },
    });
    assert.equal(widget.status, 200, widget.body);
    widgetToken = widget.json.token;
  });
  after(() => a?.close());

  /** A body that passes validation for the route, so one changed member reaches the handler. */
  const baseBody = (route: AppRoute): Record<string, unknown> => {
    const key = `${route.method} ${route.url}`;
    switch (key) {
      case 'POST /api/v1/account/applications/token':
        return { client_id: a.h.boot.client_id, client_secret: 'not-the-secret' };
      case 'POST /api/v1/account/applications/scoped-token':
        return { workspace_name: 'corpus' };
      case 'POST /api/v1/account/applications/widget-token':
        return { workspace_name: 'corpus', allowed_origin: 'https://app.example.com' };
      case 'POST /connect/api/check':
      case 'POST /connect/api/connectors':
      case 'POST /connect/api/oauth':
        return { template_id: randomUUID(), credentials: { personal_access_token: 'ghp_corpus' } };
      case 'POST /api/v1/integrations/connectors':
        return {
          workspace_name: 'default',
          connector_type: 'github',
          credentials: { personal_access_token: 'ghp_corpus' },
          replication_config: { repositories: ['a/b'] },
        };
      case 'PUT /api/v1/integrations/connectors/:id':
        return { name: 'corpus' };
      case 'POST /api/v1/integrations/connectors/:id/execute':
        return { entity: 'issues', action: 'get', params: { owner: 'o', repo: 'r', number: 1 } };
      default:
        return {};
    }
  };

  /** The route's URL with real ids (DELETE gets unknown ones: the corpus must not delete what it sweeps). */
  const urlOf = (route: AppRoute, param?: string) =>
    route.url
      .replace(':id', param ?? (route.method === 'DELETE' ? randomUUID() : githubId))
      .replace(':workspace_id', param ?? (route.method === 'DELETE' ? randomUUID() : workspaceId))
      .replace('*', param ?? 'swagger-ui.css');

  const send = async (
    route: AppRoute,
    opts: { url?: string; payload?: string | Buffer; headers?: Record<string, string> },
  ): Promise<InjectResult> => {
    const headers: Record<string, string> = {};
    if (route.auth) headers.authorization = `Bearer ${route.widget ? widgetToken : a.token}`;
    if (opts.payload !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, opts.headers);
    const res = await a.h.app.inject({
      method: route.method as 'GET',
      url: opts.url ?? urlOf(route),
      headers,
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: res.body, raw: res.rawPayload, json };
  };

  /**
   * No 5xx; an error is the one body, with a known code whose status is the one answered. The one 5xx allowed is
   * UPSTREAM_BAD_RESPONSE on execute: the catch-all upstream answers `{}` where a list action expects records,
   * which says nothing about the input.
   */
  const expectHandled = (label: string, res: InjectResult) => {
    const where = `${label}: ${res.status} ${res.body.slice(0, 300)}`;
    const upstreamShape = res.status === 502 && res.json?.code === 'UPSTREAM_BAD_RESPONSE';
    assert.ok(res.status < 500 || upstreamShape, where);
    if (res.status < 400) return;
    const code = res.json?.code as ErrorCode;
    assert.ok(ERROR_CODES.includes(code), `unknown code; ${where}`);
    assert.equal(STATUS_BY_CODE[code], res.status, `${code} is not a ${res.status}; ${where}`);
    try {
      assertError(res, res.status, code);
    } catch (err) {
      throw new assert.AssertionError({ message: `${where}\n${(err as Error).message}` });
    }
  };

  const stillServing = async () => {
    const health = await a.h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.status, 200, health.body);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
  };

  const withBodies = () => routes.filter((r) => r.method === 'POST' || r.method === 'PUT');

  test('the sweep covers the real route table', () => {
    assert.ok(routes.length >= 20, `only ${routes.length} routes`);
    assert.ok(withBodies().length >= 6, 'too few routes with bodies');
    assert.ok(
      routes.some((r) => r.url.startsWith('/docs')),
      'plugin routes are missing',
    );
  });

  test('malformed, deep and oddly encoded bodies', async () => {
    for (const route of withBodies()) {
      for (const { label, payload } of MALFORMED_BODIES) {
        expectHandled(`${route.method} ${route.url} ${label}`, await send(route, { payload }));
      }
      for (const contentType of CONTENT_TYPES) {
        const res = await send(route, {
          payload: JSON.stringify(baseBody(route)),
          headers: { 'content-type': contentType },
        });
        expectHandled(`${route.method} ${route.url} content-type ${contentType}`, res);
      }
      await stillServing();
    }
  });

  test('every body member, and every member of an object member, given each hostile value', async () => {
    const PLACEHOLDER = '"__corpus_value__"';
    for (const route of withBodies()) {
      const base = baseBody(route);
      const targets: Array<{ path: string[] }> = route.bodyFields.map((f) => ({ path: [f] }));
      targets.push({ path: ['not_a_field'] });
      for (const [field, value] of Object.entries(base)) {
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          for (const inner of [...Object.keys(value), 'not_a_field']) targets.push({ path: [field, inner] });
        }
      }
      for (const { path } of targets) {
        for (const v of VALUES) {
          const body = structuredClone(base) as Record<string, Record<string, unknown>>;
          if (path.length === 1) (body as Record<string, unknown>)[path[0]!] = '__corpus_value__';
          else body[path[0]!] = { ...body[path[0]!], [path[1]!]: '__corpus_value__' };
          const payload = JSON.stringify(body).replace(PLACEHOLDER, v.json);
          expectHandled(
            `${route.method} ${route.url} ${path.join('.')} = ${v.label}`,
            await send(route, { payload }),
          );
        }
      }
      await stillServing();
    }
  });

  test('hostile query strings on every route', async () => {
    for (const route of routes) {
      const cases = [
        ...QUERY_CASES,
        ...route.queryFields.flatMap((f) => [
          ...QUERY_FIELD_VALUES.map((v) => `${f}=${v}`),
          `${f}[]=1`,
          `${f}=a&${f}=b`,
        ]),
      ];
      const payload =
        route.method === 'POST' || route.method === 'PUT' ? JSON.stringify(baseBody(route)) : undefined;
      for (const q of cases) {
        const res = await send(route, { url: `${urlOf(route)}?${q}`, ...(payload ? { payload } : {}) });
        expectHandled(`${route.method} ${route.url}?${q.slice(0, 60)}`, res);
      }
      await stillServing();
    }
  });

  test('hostile path params on every route that has one', async () => {
    for (const route of routes.filter((r) => /[:*]/.test(r.url))) {
      const payload =
        route.method === 'POST' || route.method === 'PUT' ? JSON.stringify(baseBody(route)) : undefined;
      for (const p of PARAM_VALUES) {
        const res = await send(route, { url: urlOf(route, p), ...(payload ? { payload } : {}) });
        expectHandled(`${route.method} ${route.url} with ${p.slice(0, 40)}`, res);
      }
      await stillServing();
    }
  });

  test('hostile headers on every route', async () => {
    for (const route of routes) {
      const payload =
        route.method === 'POST' || route.method === 'PUT' ? JSON.stringify(baseBody(route)) : undefined;
      const cases: Array<Record<string, string>> = [...HEADER_CASES];
      if (route.auth) {
        cases.push(
          { authorization: `Bearer ${a.token}\u00e9` },
          { authorization: `Bearer ${'x'.repeat(8000)}` },
          { authorization: 'Bearer \u0000' },
        );
      }
      for (const headers of cases) {
        const res = await send(route, { headers, ...(payload ? { payload } : {}) });
        expectHandled(`${route.method} ${route.url} ${JSON.stringify(headers).slice(0, 60)}`, res);
      }
      await stillServing();
    }
  });

  test('every declared param of every entity and action, given values that would break a URL or a header', async () => {
    const fill = (p: ParamDefinition): unknown => {
      if (p.enum) return p.enum[0];
      if (p.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (p.format === 'date') return '2024-01-01';
      return { string: 'x', integer: 1, number: 1, boolean: true, array: ['x'], object: {} }[p.type];
    };
    let requests = 0;
    for (const def of a.h.deps.registry.all()) {
      const url = `/api/v1/integrations/connectors/${a.connectors.get(def.slug)}/execute`;
      const route = routes.find((r) => r.url === '/api/v1/integrations/connectors/:id/execute')!;
      for (const entity of def.entities) {
        for (const [action, spec] of Object.entries(entity.actions)) {
          const declared = Object.entries(spec?.params ?? {});
          const required = Object.fromEntries(
            declared.filter(([, p]) => p.required).map(([n, p]) => [n, fill(p)]),
          );
          const names = [...declared.map(([n]) => n), ...(action === 'download' ? ['range_header'] : [])];
          for (const name of names) {
            for (const value of UPSTREAM_PART_VALUES) {
              const payload = JSON.stringify({
                entity: entity.name,
                action,
                params: { ...required, [name]: value },
              });
              const res = await send(route, { url, payload });
              requests++;
              expectHandled(
                `${def.slug} ${entity.name}.${action} ${name}=${JSON.stringify(value).slice(0, 40)}`,
                res,
              );
              // The catch-all upstream always answers: "could not reach" would mean ces sent something broken.
              assert.notEqual(res.json?.code, 'UPSTREAM_UNAVAILABLE', res.body);
            }
          }
        }
      }
    }
    assert.ok(requests > 500, `only ${requests} requests`);
    for (const r of a.upstream.requests) {
      assert.doesNotMatch(r.path, /[\r\n\s]/, `a raw CR, LF or space reached the upstream's path: ${r.path}`);
      assert.equal(r.headers['x-injected'], undefined, `a header was injected: ${r.path}`);
    }
    await stillServing();
  });
});
