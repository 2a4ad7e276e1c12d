import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useCorpus } from './corpus.ts';

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

describe('bad-input corpus over every route', () => {
  const c = useCorpus();

  const withBodies = () => c.routes.filter((r) => r.method === 'POST' || r.method === 'PUT');

  test('the sweep covers the real route table', () => {
    assert.ok(c.routes.length >= 20, `only ${c.routes.length} routes`);
    assert.ok(withBodies().length >= 6, 'too few routes with bodies');
    assert.ok(
      c.routes.some((r) => r.url.startsWith('/docs')),
      'plugin routes are missing',
    );
  });

  test('malformed, deep and oddly encoded bodies', async () => {
    for (const route of withBodies()) {
      for (const { label, payload } of MALFORMED_BODIES) {
        c.expectHandled(`${route.method} ${route.url} ${label}`, await c.send(route, { payload }));
      }
      for (const contentType of CONTENT_TYPES) {
        const res = await c.send(route, {
          payload: JSON.stringify(c.baseBody(route)),
          headers: { 'content-type': contentType },
        });
        c.expectHandled(`${route.method} ${route.url} content-type ${contentType}`, res);
      }
      await c.stillServing();
    }
  });

  test('every body member, and every member of an object member, given each hostile value', async () => {
    const PLACEHOLDER = '"__corpus_value__"';
    for (const route of withBodies()) {
      const base = c.baseBody(route);
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
          c.expectHandled(
            `${route.method} ${route.url} ${path.join('.')} = ${v.label}`,
            await c.send(route, { payload }),
          );
        }
      }
      await c.stillServing();
    }
  });

  test('hostile query strings on every route', async () => {
    for (const route of c.routes) {
      const cases = [
        ...QUERY_CASES,
        ...route.queryFields.flatMap((f) => [
          ...QUERY_FIELD_VALUES.map((v) => `${f}=${v}`),
          `${f}[]=1`,
          `${f}=a&${f}=b`,
        ]),
      ];
      const payload =
        route.method === 'POST' || route.method === 'PUT' ? JSON.stringify(c.baseBody(route)) : undefined;
      for (const q of cases) {
        const res = await c.send(route, { url: `${c.urlOf(route)}?${q}`, ...(payload ? { payload } : {}) });
        c.expectHandled(`${route.method} ${route.url}?${q.slice(0, 60)}`, res);
      }
      await c.stillServing();
    }
  });

  test('hostile path params on every route that has one', async () => {
    for (const route of c.routes.filter((r) => /[:*]/.test(r.url))) {
      const payload =
        route.method === 'POST' || route.method === 'PUT' ? JSON.stringify(c.baseBody(route)) : undefined;
      for (const p of PARAM_VALUES) {
        const res = await c.send(route, { url: c.urlOf(route, p), ...(payload ? { payload } : {}) });
        c.expectHandled(`${route.method} ${route.url} with ${p.slice(0, 40)}`, res);
      }
      await c.stillServing();
    }
  });

  test('hostile headers on every route', async () => {
    for (const route of c.routes) {
      const payload =
        route.method === 'POST' || route.method === 'PUT' ? JSON.stringify(c.baseBody(route)) : undefined;
      const cases: Array<Record<string, string>> = [...HEADER_CASES];
      if (route.auth) {
        cases.push(
          { authorization: `Bearer ${c.a.token}\u00e9` },
          { authorization: `Bearer ${'x'.repeat(8000)}` },
          { authorization: 'Bearer \u0000' },
        );
      }
      for (const headers of cases) {
        const res = await c.send(route, { headers, ...(payload ? { payload } : {}) });
        c.expectHandled(`${route.method} ${route.url} ${JSON.stringify(headers).slice(0, 60)}`, res);
      }
      await c.stillServing();
    }
  });
});
