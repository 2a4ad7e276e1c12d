import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';
import { DomainError } from '../../../src/errors.ts';
import { ACME_CONFIG, ACME_KEY, acme, json, runtime, startServer } from './helpers.ts';

type Server = Awaited<ReturnType<typeof startServer>>;
const SECRET = ACME_KEY.values.api_key;

/** The next response the server gives; tests set it before each call. */
let respond: (res: ServerResponse) => void = (res) => json(res, 200, []);

function expectError(code: string, check?: (err: DomainError) => void) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.message);
    const everything = JSON.stringify({ message: err.message, extra: err.extra, errors: err.errors });
    assert.ok(!everything.includes(SECRET), `credential leaked: ${everything}`);
    assert.ok(
      !everything.includes('127.0.0.1') || code === 'UPSTREAM_ERROR' || code === 'EGRESS_DENIED',
      'URL leaked',
    );
    check?.(err);
    return true;
  };
}

describe('ConnectorRuntime errors', () => {
  let server: Server;
  let rt: ConnectorRuntime;
  let def: ConnectorDefinition;
  before(async () => {
    server = await startServer((_req, res) => respond(res));
    rt = runtime({ acme: server.url }, { maxResponseBytes: 4096 });
    def = acme();
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  const exec = (
    params: Record<string, unknown> = { folder: 'x' },
    entity = 'things',
    action = 'list',
    unparsedRecords = false,
    definition = def,
  ) =>
    rt.execute({
      connectorId: 'c',
      definition,
      credentials: ACME_KEY,
      config: ACME_CONFIG,
      entity,
      action,
      params,
      unparsedRecords,
    });

  it('rejects unknown entities, actions and bad params with helpful messages before any request', async () => {
    server.seen.length = 0;
    await assert.rejects(
      exec({}, 'thngs'),
      expectError('UNKNOWN_ENTITY', (e) => {
        assert.match(
          e.message,
          /Unknown entity 'thngs' for Acme\. Did you mean 'things'\? Available entities: things, pages, offsets, cursors, links\./,
        );
      }),
    );
    await assert.rejects(
      exec({}, 'things', 'delete'),
      expectError('UNKNOWN_ACTION', (e) => {
        assert.match(e.message, /has no action 'delete'\. Available actions: list, get, create\./);
      }),
    );
    await assert.rejects(
      exec({ size: 0, tags: 'a', colour: 'red' }),
      expectError('INVALID_PARAMS', (e) => {
        assert.match(e.message, /'size' must be >= 1/);
        assert.match(e.message, /'tags' must be an array/);
        assert.match(e.message, /unknown param 'colour'/);
        assert.match(e.message, /missing required param 'folder'/);
        assert.match(
          e.message,
          /Accepted params: folder \(string, required\), size \(integer\), tags \(array\), limit \(integer\), cursor \(string\)/,
        );
        assert.deepEqual(e.errors.map((x) => x.field).sort(), [
          'params.colour',
          'params.folder',
          'params.size',
          'params.tags',
        ]);
      }),
    );
    await assert.rejects(
      exec({ folder: '..' }),
      expectError('INVALID_PARAMS', (e) =>
        assert.match(e.message, /'folder' must not be empty, '\.' or '\.\.'/),
      ),
    );
    await assert.rejects(
      exec({ folder: 'x', id: '7a' }, 'things', 'get'),
      expectError('INVALID_PARAMS', (e) => assert.match(e.message, /'id' must be an integer/)),
    );
    await assert.rejects(
      exec(JSON.parse('{"folder": "x", "__proto__": 1, "toString": 2}')),
      expectError('INVALID_PARAMS', (e) =>
        assert.match(e.message, /unknown param '__proto__'; unknown param 'toString'/),
      ),
    );
    assert.equal(server.seen.length, 0);
  });

  const statusCases: Array<[number, string, Record<string, string>, ((e: DomainError) => void)?]> = [
    [401, 'UPSTREAM_AUTH_FAILED', {}],
    [403, 'UPSTREAM_FORBIDDEN', {}],
    [404, 'UPSTREAM_NOT_FOUND', {}],
    [410, 'UPSTREAM_NOT_FOUND', {}],
    [422, 'INVALID_PARAMS', {}],
    [429, 'UPSTREAM_RATE_LIMITED', { 'retry-after': '7' }, (e) => assert.equal(e.retryAfter, 7)],
    [
      429,
      'UPSTREAM_RATE_LIMITED',
      { 'retry-after': new Date(Date.now() + 30_000).toUTCString() },
      (e) => assert.ok(e.retryAfter! >= 28 && e.retryAfter! <= 31),
    ],
    [
      429,
      'UPSTREAM_RATE_LIMITED',
      { 'x-reset-ms': String(Date.now() + 5_000) },
      (e) => assert.ok(e.retryAfter! >= 4 && e.retryAfter! <= 6),
    ],
    [500, 'UPSTREAM_ERROR', {}],
    [502, 'UPSTREAM_UNAVAILABLE', {}],
    [503, 'UPSTREAM_UNAVAILABLE', {}],
    [409, 'UPSTREAM_ERROR', {}],
  ];
  for (const [status, code, headers, check] of statusCases) {
    it(`maps HTTP ${status}${Object.keys(headers).length ? ` with ${Object.keys(headers)[0]}` : ''} to ${code}`, async () => {
      respond = (res) =>
        json(
          res,
          status,
          { message: `it failed for key ${SECRET}`, code: 'E1', internal: 'do not show', token: SECRET },
          headers,
        );
      // One attempt: the mapping of the answer, not the retries (retry.test.ts) nor how long they may take.
      await assert.rejects(
        exec({ folder: 'x' }, 'things', 'list', false, { ...def, retry: { max_attempts: 1 } }),
        expectError(code, (e) => {
          const upstream = e.extra?.upstream as { status: number; body: Record<string, unknown> };
          assert.equal(upstream.status, status);
          assert.deepEqual(upstream.body, { message: 'it failed for key [redacted]', code: 'E1' });
          check?.(e);
        }),
      );
    });
  }

  it('reads a top-level array error body under array_body_key: rules, exposed keys and the message', async () => {
    const arrayDef: ConnectorDefinition = {
      ...def,
      retry: { max_attempts: 1 },
      errors: {
        expose_body_keys: ['errors'],
        array_body_key: 'errors',
        rules: [
          {
            when: {
              status: [403],
              body: { path: ['errors', '0', 'errorCode'], equals: 'REQUEST_LIMIT_EXCEEDED' },
            },
            error: 'rate_limited',
          },
        ],
        retry_after_default_seconds: 60,
      },
    };
    const refusal = (errorCode: string) => (res: ServerResponse) =>
      json(res, 403, [{ message: `refused for ${SECRET}`, errorCode }]);
    respond = refusal('REQUEST_LIMIT_EXCEEDED');
    await assert.rejects(
      exec({ folder: 'x' }, 'things', 'list', false, arrayDef),
      expectError('UPSTREAM_RATE_LIMITED', (e) => {
        assert.equal(e.retryAfter, 60);
        assert.match(e.message, /refused for \[redacted\]/);
        assert.deepEqual((e.extra?.upstream as { body: unknown }).body, {
          errors: [{ message: 'refused for [redacted]', errorCode: 'REQUEST_LIMIT_EXCEEDED' }],
        });
      }),
    );
    // Another code in the same array is the plain refusal; without the option the array body shows nothing.
    respond = refusal('INSUFFICIENT_ACCESS');
    await assert.rejects(
      exec({ folder: 'x' }, 'things', 'list', false, arrayDef),
      expectError('UPSTREAM_FORBIDDEN', (e) => assert.match(e.message, /refused for/)),
    );
    const { array_body_key: _, ...without } = arrayDef.errors ?? {};
    respond = refusal('REQUEST_LIMIT_EXCEEDED');
    await assert.rejects(
      exec({ folder: 'x' }, 'things', 'list', false, { ...arrayDef, errors: without }),
      expectError('UPSTREAM_FORBIDDEN', (e) => {
        assert.doesNotMatch(e.message, /refused for/);
        assert.deepEqual((e.extra?.upstream as { body: unknown }).body, {});
      }),
    );
  });

  it('applies declared rules to successful statuses too (errors inside HTTP 200)', async () => {
    respond = (res) => json(res, 200, { ok: false, message: 'channel_not_found' });
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_ERROR', (e) => assert.match(e.message, /channel_not_found/)),
    );
  });

  it('reports garbage, truncated and non-list bodies as UPSTREAM_BAD_RESPONSE, oversized ones as UPSTREAM_RESPONSE_TOO_LARGE', async () => {
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"things": [');
    };
    // Also when the records were asked for unparsed (an execute reply): a list that does not close is no list.
    for (const unparsed of [false, true]) {
      await assert.rejects(
        exec(undefined, undefined, undefined, unparsed),
        expectError('UPSTREAM_BAD_RESPONSE', (e) => assert.match(e.message, /not valid JSON/)),
      );
    }
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"things": [');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    await assert.rejects(exec(), expectError('UPSTREAM_BAD_RESPONSE'));
    respond = (res) => json(res, 200, { things: [{ blob: 'x'.repeat(5000) }] });
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_RESPONSE_TOO_LARGE', (e) =>
        assert.match(
          e.message,
          /the 4096 bytes ces reads of one upstream answer \(CES_UPSTREAM_MAX_RESPONSE_BYTES\)/,
        ),
      ),
    );
    respond = (res) => json(res, 200, { things: { id: 1 } });
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_BAD_RESPONSE', (e) => assert.match(e.message, /no list of records/)),
    );
  });

  it('times out slow upstreams and reports refused connections', async () => {
    respond = () => {}; // never answers
    // A short timeout for this call only: on a loaded machine, 300 ms would turn other tests' answers into timeouts.
    const slow = runtime({ acme: server.url }, { timeoutMs: 300 });
    try {
      await assert.rejects(
        slow.execute({
          connectorId: 'c',
          definition: def,
          credentials: ACME_KEY,
          config: ACME_CONFIG,
          entity: 'things',
          action: 'list',
          params: { folder: 'x' },
        }),
        expectError('UPSTREAM_TIMEOUT', (e) => assert.match(e.message, /within 300 ms/)),
      );
    } finally {
      await slow.close();
    }
    const closed = runtime({ acme: 'http://127.0.0.1:1' });
    try {
      await assert.rejects(
        closed.execute({
          connectorId: 'c',
          definition: def,
          credentials: ACME_KEY,
          config: ACME_CONFIG,
          entity: 'things',
          action: 'list',
          params: { folder: 'x' },
        }),
        expectError('UPSTREAM_ERROR', (e) => assert.match(e.message, /ECONNREFUSED/)),
      );
    } finally {
      await closed.close();
    }
  });

  it('follows same-origin redirects of GETs but never to another host', async () => {
    let hop = 0;
    respond = (res) => {
      hop++;
      if (hop === 1) {
        res.writeHead(301, { location: '/moved/things' });
        res.end();
      } else json(res, 200, { things: [{ id: 'moved' }] });
    };
    assert.deepEqual(parseRecords((await exec()).payload), [{ id: 'moved' }]);
    respond = (res) => {
      res.writeHead(302, { location: 'https://evil.example/things' });
      res.end();
    };
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_ERROR', (e) => assert.match(e.message, /HTTP 302/)),
    );
  });

  it('checkCredentials passes on 2xx and turns 401/403 into INVALID_CREDENTIALS', async () => {
    respond = (res) => json(res, 200, { id: 1 });
    await rt.checkCredentials(def, ACME_KEY, ACME_CONFIG);
    for (const status of [401, 403]) {
      respond = (res) => json(res, status, { message: 'Bad credentials' });
      await assert.rejects(
        rt.checkCredentials(def, ACME_KEY, ACME_CONFIG),
        expectError('INVALID_CREDENTIALS', (e) => {
          assert.match(
            e.message,
            /^The provider rejected these credentials \(Acme answered HTTP 40[13]: Bad credentials\)/,
          );
        }),
      );
    }
    respond = (res) => json(res, 503, {});
    await assert.rejects(
      rt.checkCredentials(def, ACME_KEY, ACME_CONFIG),
      expectError('UPSTREAM_UNAVAILABLE'),
    );
  });
});

describe('egress policy', () => {
  const github = DefinitionRegistry.default().bySlug('github')!;
  const creds = { option: 'PAT Credentials', values: { personal_access_token: 'ghp_x' } };

  it('refuses a loopback base URL that did not come from the overrides, by literal IP and by DNS', async () => {
    const server = await startServer((_req, res) =>
      json(res, 200, { login: 'octocat', id: 1, node_id: 'MDQ6VXNlcjE=' }),
    );
    const rt = runtime({});
    try {
      for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
        const config = { repositories: ['o/r'], api_url: `http://${host}:${server.port}` };
        await assert.rejects(
          rt.execute({
            connectorId: 'c',
            definition: github,
            credentials: creds,
            config,
            entity: 'users',
            action: 'get',
            params: { username: 'octocat' },
          }),
          expectError('EGRESS_DENIED', (e) => assert.match(e.message, /CES_EGRESS_ALLOW/)),
          host,
        );
        await assert.rejects(rt.checkCredentials(github, creds, config), expectError('EGRESS_DENIED'));
      }
      assert.equal(server.seen.length, 0);
      // The same server is reachable once the operator overrides the slug.
      const allowed = runtime({ github: server.url });
      const out = await allowed.execute({
        connectorId: 'c',
        definition: github,
        credentials: creds,
        config: {},
        entity: 'users',
        action: 'get',
        params: { username: 'octocat' },
      });
      assert.deepEqual(parseRecords(out.payload), {
        login: 'octocat',
        id: 'MDQ6VXNlcjE=',
        node_id: 'MDQ6VXNlcjE=',
        database_id: 1,
      });
      await allowed.close();
    } finally {
      await rt.close();
      await server.close();
    }
  });
});
