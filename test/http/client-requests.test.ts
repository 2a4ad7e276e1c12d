// The hosted service's clients' requests, replayed byte for byte on a real socket (inject() would add its own
// headers), and their answers read the way those clients read them.
//
// The Go CLI (airbyte-agent, internal/client/client.go) labels every request `Content-Type: application/json`,
// a GET or a DELETE without a body too, and then sends neither Content-Length nor Transfer-Encoding on a
// body-less DELETE (net/http's rule); its JSON bodies come from json.Encoder, with a trailing newline. It treats
// a status >= 400 as a failure whose text is the body's `detail` or `message`, and anything else as JSON.

import assert from 'node:assert/strict';
import type net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createGithubConnector, startWithGithub } from '../connectors/github/harness.ts';
import type { Harness } from '../helpers/harness.ts';
import { exchange, type RawAnswer } from '../helpers/raw-http.ts';
import { referenceRequestSchema } from '../helpers/reference-spec.ts';

const CLI_VERSION = '0.9.4';

/** What the CLI's client.do returns: the JSON of a success, or the error it raises on a status >= 400. */
function cliResult(answer: RawAnswer): { ok: true; json: unknown } | { ok: false; message: string } {
  if (answer.status >= 400) {
    let message = answer.body.length > 0 ? answer.body.toString('utf8') : `HTTP ${answer.status}`;
    try {
      const parsed = JSON.parse(answer.body.toString('utf8')) as { detail?: string; message?: string };
      message = parsed.detail || parsed.message || message;
    } catch {}
    return { ok: false, message };
  }
  return { ok: true, json: answer.body.length === 0 ? null : JSON.parse(answer.body.toString('utf8')) };
}

describe('requests of the hosted service’s clients', () => {
  let h: Harness;
  let port: number;
  let token: string;
  let close: () => Promise<unknown>;

  before(async () => {
    // A GitHub fake: creating a connector checks its provider is reachable.
    ({ h, close } = await startWithGithub());
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as net.AddressInfo).port;
    token = await h.token();
  });
  after(() => close());

  /** The CLI's request head: net/http's Host and User-Agent lines, its headers in canonical form, sorted. */
  const cliHead = (method: string, path: string, extra: string[] = []) =>
    [
      `${method} ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `User-Agent: airbyte-agent/${CLI_VERSION}`,
      ...extra,
      'Accept: application/json',
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      `X-Adp-Agent-Cli: ${CLI_VERSION}`,
      'Accept-Encoding: gzip',
      '',
      '',
    ].join('\r\n');
  /** A CLI request with a body: json.Encoder's bytes (keys sorted, a newline at the end) and their length. */
  const cliWithBody = (method: string, path: string, json: string) =>
    cliHead(method, path, [`Content-Length: ${Buffer.byteLength(json)}`]) + json;

  const newConnector = async () => {
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    return res.json.id as string;
  };
  const newWorkspace = async (name: string) => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: name },
    });
    assert.equal(res.status, 200, res.body);
    const list = await h.inject({ method: 'GET', url: `/api/v1/workspaces?name_contains=${name}`, token });
    const ws = (list.json.data as Array<{ id: string; name: string }>).find((w) => w.name === name);
    assert.ok(ws, list.body);
    return ws.id;
  };

  describe('a DELETE labelled JSON without a body', () => {
    test('`connectors delete`: no Content-Length at all, as net/http sends it, deletes the connector', async () => {
      const id = await newConnector();
      const answer = await exchange(port, cliHead('DELETE', `/api/v1/integrations/connectors/${id}`));
      const result = cliResult(answer);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(answer.status, 202);
      assert.equal((result.json as { id: string }).id, id);
      const gone = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
      assert.equal(gone.status, 404, gone.body);
    });

    test('Content-Length: 0 and an empty chunked body are no body either', async () => {
      const a = await newConnector();
      const withZero = await exchange(
        port,
        cliHead('DELETE', `/api/v1/integrations/connectors/${a}`, ['Content-Length: 0']),
      );
      assert.equal(withZero.status, 202, withZero.body.toString());
      const b = await newConnector();
      const chunked = await exchange(
        port,
        `${cliHead('DELETE', `/api/v1/integrations/connectors/${b}`, ['Transfer-Encoding: chunked'])}0\r\n\r\n`,
      );
      assert.equal(chunked.status, 202, chunked.body.toString());
    });

    test('DELETE /workspaces/{id} the same way deletes the workspace', async () => {
      const id = await newWorkspace('to-be-deleted');
      const answer = await exchange(port, cliHead('DELETE', `/api/v1/workspaces/${id}`));
      const result = cliResult(answer);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal((result.json as { id: string }).id, id);
      const gone = await h.inject({ method: 'GET', url: `/api/v1/workspaces/${id}`, token });
      assert.equal(gone.status, 404, gone.body);
    });

    test('a route that needs a body still answers 400 INVALID_JSON to an empty one', async () => {
      const id = await newWorkspace('needs-a-body');
      const answer = await exchange(port, cliHead('PUT', `/api/v1/workspaces/${id}`, ['Content-Length: 0']));
      assert.equal(answer.status, 400);
      const body = JSON.parse(answer.body.toString()) as {
        code: string;
        request_id: string;
        errors: unknown[];
      };
      assert.equal(body.code, 'INVALID_JSON');
      assert.ok(body.request_id);
      assert.deepEqual(body.errors, []);
    });
  });

  describe('`connectors list-available`: GET /api/v1/integrations/templates/sources/global', () => {
    test('lists what ?use_global=true lists, and the CLI finds a template by name and opens it', async () => {
      const answer = await exchange(port, cliHead('GET', '/api/v1/integrations/templates/sources/global'));
      const result = cliResult(answer);
      assert.ok(result.ok, JSON.stringify(result));
      // The CLI's resolveTemplateID: {data: [{id, name}]}, a case-insensitive match on name.
      const data = (result.json as { data: Array<{ id: string; name: string }> }).data;
      const same = await h.inject({
        method: 'GET',
        url: '/api/v1/integrations/templates/sources?use_global=true',
        token,
      });
      assert.equal(same.status, 200, same.body);
      assert.deepEqual(data, same.json.data);
      const github = data.find((t) => t.name.toLowerCase() === 'github');
      assert.ok(github, `no GitHub template in ${data.map((t) => t.name).join(', ')}`);
      const opened = cliResult(
        await exchange(port, cliHead('GET', `/api/v1/integrations/templates/sources/${github.id}`)),
      );
      assert.ok(opened.ok, JSON.stringify(opened));
      assert.equal((opened.json as { id: string }).id, github.id);
      const withQuery = await exchange(
        port,
        cliHead('GET', '/api/v1/integrations/templates/sources/global?tags=x'),
      );
      assert.equal(withQuery.status, 200);
      assert.equal(withQuery.headers['x-ces-ignored-fields'], 'query.tags');
      assert.deepEqual((cliResult(withQuery) as { json: unknown }).json, result.json);
    });
  });

  describe('members and query parameters the reference leaves open', () => {
    test('the token request with grant_type: a token, and the extra named in x-ces-ignored-fields', async () => {
      // An OAuth2 client-credentials client's body: grant_type beside the two members the reference names.
      const json = JSON.stringify({
        grant_type: 'client_credentials',
        client_id: h.boot.client_id,
        client_secret: h.boot.client_secret,
      });
      const answer = await exchange(
        port,
        [
          'POST /api/v1/account/applications/token HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(json)}`,
          '',
          json,
        ].join('\r\n'),
      );
      assert.equal(answer.status, 200, answer.body.toString());
      assert.equal(answer.headers['x-ces-ignored-fields'], 'body.grant_type');
      // The SDK keeps access_token and ignores the rest; the token works.
      const { access_token } = JSON.parse(answer.body.toString()) as { access_token: string };
      const use = await h.inject({ method: 'GET', url: '/api/v1/workspaces', token: access_token });
      assert.equal(use.status, 200, use.body);
      assert.equal(use.headers['x-ces-ignored-fields'], undefined);
    });

    test('a typo of a required member is still refused: the real one is missing', async () => {
      const res = await h.inject({
        method: 'POST',
        url: '/api/v1/account/applications/token',
        body: { client_id: h.boot.client_id, client_secrett: h.boot.client_secret },
      });
      assert.equal(res.status, 422, res.body);
      assert.equal(res.json.code, 'VALIDATION_ERROR');
      assert.ok(
        (res.json.errors as Array<{ field: string }>).some((e) => e.field === 'body.client_secret'),
        res.body,
      );
    });

    test('GET …/definitions/sources?foo=1 answers the catalog, naming query.foo', async () => {
      const answer = await exchange(port, cliHead('GET', '/api/v1/integrations/definitions/sources?foo=1'));
      const result = cliResult(answer);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(answer.headers['x-ces-ignored-fields'], 'query.foo');
      const plain = await h.inject({ method: 'GET', url: '/api/v1/integrations/definitions/sources', token });
      assert.deepEqual(result.json, plain.json);
      // The known parameter keeps working beside an unknown one.
      const named = cliResult(
        await exchange(port, cliHead('GET', '/api/v1/integrations/definitions/sources?foo=1&name=git')),
      );
      assert.ok(named.ok);
      const names = (named.json as { definitions: Array<{ name: string }> }).definitions.map((d) => d.name);
      assert.ok(names.length > 0 && names.every((n) => /git/i.test(n)), names.join(', '));
    });

    test('PUT /workspaces/{id} with an unknown member renames it, naming the member', async () => {
      const id = await newWorkspace('to-be-renamed');
      const answer = await exchange(
        port,
        cliWithBody('PUT', `/api/v1/workspaces/${id}`, '{"description":"ours","name":"renamed"}\n'),
      );
      const result = cliResult(answer);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal((result.json as { name: string }).name, 'renamed');
      assert.equal(answer.headers['x-ces-ignored-fields'], 'body.description');
    });

    test('names a client chose reach the header percent-encoded and bounded', async () => {
      const id = await newWorkspace('odd-names');
      const odd: Record<string, unknown> = { 'a\r\nset-cookie: x': 1, é: 2 };
      for (let i = 0; i < 30; i++) odd[`extra_${i}`] = i;
      const res = await h.inject({ method: 'PUT', url: `/api/v1/workspaces/${id}`, token, body: odd });
      assert.equal(res.status, 200, res.body);
      const names = String(res.headers['x-ces-ignored-fields']).split(', ');
      assert.equal(names.length, 20);
      assert.equal(names[0], 'body.a%0D%0Aset-cookie%3A%20x');
      assert.equal(names[1], 'body.%C3%A9');
      assert.equal(res.headers['set-cookie'], undefined);
    });

    test('the routes opened are open in the reference, and the one closed there stays closed here', () => {
      for (const [method, path] of [
        ['post', '/api/v1/account/applications/token'],
        ['put', '/api/v1/workspaces/{workspace_id}'],
      ] as const) {
        const schema = referenceRequestSchema(method, path) as { additionalProperties?: unknown };
        assert.ok(schema, `${method} ${path}`);
        assert.notEqual(schema.additionalProperties, false, `${method} ${path} is closed in the reference`);
      }
      const closed = referenceRequestSchema('put', '/api/v1/oauth/credentials') as {
        additionalProperties?: unknown;
      };
      assert.equal(closed.additionalProperties, false);
    });

    test('PUT /oauth/credentials, closed in the reference, refuses an unknown member', async () => {
      const res = await h.inject({
        method: 'PUT',
        url: '/api/v1/oauth/credentials',
        token,
        body: {
          connector_type: 'github',
          configuration: { client_id: 'id', client_secret: 'secret' },
          scope_type: 'organization',
        },
      });
      assert.equal(res.status, 422, res.body);
      assert.ok(
        (res.json.errors as Array<{ field: string }>).some((e) => e.field === 'body.scope_type'),
        res.body,
      );
    });
  });

  describe('execute', () => {
    test('a connector id that is not a UUID (`source_id:abc`) is a 404, as an unknown UUID is', async () => {
      // connectors describe: Post(execPath, {"entity": "", "action": "describe"}), keys sorted by encoding/json.
      const json = '{"action":"describe","entity":""}\n';
      const notUuid = await exchange(
        port,
        cliWithBody('POST', '/api/v1/integrations/connectors/source_id:abc/execute', json),
      );
      const unknown = await exchange(
        port,
        cliWithBody(
          'POST',
          '/api/v1/integrations/connectors/00000000-0000-4000-8000-000000000000/execute',
          json,
        ),
      );
      for (const answer of [notUuid, unknown]) {
        assert.equal(answer.status, 404, answer.body.toString());
        const body = JSON.parse(answer.body.toString()) as { code: string; request_id: string };
        assert.equal(body.code, 'CONNECTOR_NOT_FOUND');
        assert.ok(body.request_id);
      }
      const result = cliResult(notUuid);
      assert.ok(
        !result.ok && result.message === 'Connector source_id:abc not found.',
        JSON.stringify(result),
      );
    });

    test('an unknown member of the execute body is still refused: it would change the call', async () => {
      const id = await newConnector();
      const res = await h.inject({
        method: 'POST',
        url: `/api/v1/integrations/connectors/${id}/execute`,
        token,
        body: { entity: 'repositories', action: 'list', fields: ['id'] },
      });
      assert.equal(res.status, 422, res.body);
      assert.ok(
        (res.json.errors as Array<{ field: string }>).some((e) => e.field === 'body.fields'),
        res.body,
      );
    });
  });
});
