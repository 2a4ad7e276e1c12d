import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createGithubConnector,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';

describe('execute', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let connectorId: string;

  const exec = (body: unknown, id = connectorId, t = token) =>
    h.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, token: t, body });

  before(async () => {
    ({ h, fake, close } = await startWithGithub());
    token = await h.token();
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    connectorId = res.json.id;
  });
  after(() => close());

  test("a list written as the provider's bytes carries the reply's headers: JSON, its length, our request id", async () => {
    const params = { owner: 'octokit-fixture-org', repo: 'paginate-issues', per_page: 3 };
    const res = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      token,
      body: { entity: 'issues', action: 'list', params },
      headers: { 'x-request-id': 'client-chosen' },
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(Number(res.headers['content-length']), res.raw.length);
    assert.match(String(res.headers['x-request-id']), /^req_[A-Za-z0-9_-]{16}$/);
    assert.equal(res.json.result.length, 3);
    assert.equal(typeof res.json.connector_metadata.end_cursor, 'string');
  });

  test('issues list pages by cursor through real recorded Link headers', async () => {
    const params = { owner: 'octokit-fixture-org', repo: 'paginate-issues', per_page: 3 };
    let res = await exec({ entity: 'issues', action: 'list', params });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.status, 'success');
    assert.equal(res.json.execution_metadata.connector_instance_id, `source_id:${connectorId}`);
    assert.equal(typeof res.json.execution_metadata.execution_time_ms, 'number');
    const seen: number[] = [];
    let pages = 0;
    for (;;) {
      pages++;
      assert.ok(Array.isArray(res.json.result));
      seen.push(...res.json.result.map((i: { number: number }) => i.number));
      const meta = res.json.connector_metadata;
      assert.equal(typeof meta.has_next_page, 'boolean');
      if (!meta.has_next_page) {
        assert.equal(meta.end_cursor, null);
        break;
      }
      assert.equal(typeof meta.end_cursor, 'string');
      res = await exec({ entity: 'issues', action: 'list', params: { ...params, cursor: meta.end_cursor } });
      assert.equal(res.status, 200, res.body);
    }
    assert.equal(pages, 5);
    assert.equal(seen.length, 13);
    assert.equal(new Set(seen).size, 13);
    assert.deepEqual(fake.unhandled, []);
  });

  test('the provider paging keys work too, and get returns one object', async () => {
    const page2 = await exec({
      entity: 'issues',
      action: 'list',
      params: { owner: 'ces-demo', repo: 'widgets', state: 'all', per_page: 10, page: 3 },
    });
    assert.equal(page2.status, 200, page2.body);
    assert.equal(page2.json.result.length, 5);
    assert.equal(page2.json.connector_metadata.has_next_page, false);

    const one = await exec({
      entity: 'issues',
      action: 'get',
      params: { owner: 'ces-demo', repo: 'widgets', number: 1 },
    });
    assert.equal(one.status, 200, one.body);
    assert.equal(one.json.result.number, 1);
    assert.equal(one.json.connector_metadata.has_next_page, false);
    assert.equal(one.json.connector_metadata.end_cursor, null);
  });

  test('every GitHub entity of the definition answers', async () => {
    const cases = [
      { entity: 'repositories', action: 'get', params: { owner: 'ces-demo', repo: 'widgets' } },
      { entity: 'repositories', action: 'list', params: { owner: 'octocat' } },
      {
        entity: 'pull_requests',
        action: 'list',
        params: { owner: 'ces-demo', repo: 'widgets', state: 'all' },
      },
      { entity: 'comments', action: 'list', params: { owner: 'ces-demo', repo: 'widgets', number: 1 } },
      { entity: 'users', action: 'get', params: { username: 'octocat' } },
    ];
    for (const c of cases) {
      const res = await exec(c);
      assert.equal(res.status, 200, `${c.entity}.${c.action}: ${res.body}`);
    }
    const prs = await exec(cases[2]);
    assert.ok(prs.json.result.length > 0);
    const pr = await exec({
      entity: 'pull_requests',
      action: 'get',
      params: { owner: 'ces-demo', repo: 'widgets', number: prs.json.result[0].number },
    });
    assert.equal(pr.status, 200, pr.body);
    assert.equal(pr.json.result.number, prs.json.result[0].number);
    const comments = await exec(cases[3]);
    assert.equal(comments.json.result.length, 3);
    assert.deepEqual(fake.unhandled, []);
  });

  test('a list whose records are the whole upstream body carries exactly what the provider sent', async () => {
    // Commits declare no record_fields (GitHub's issues do, so their records are built: test/http/record-fields.test.ts).
    const params = { owner: 'ces-demo', repo: 'widgets', per_page: 7 };
    const res = await exec({ entity: 'commits', action: 'list', params });
    assert.equal(res.status, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const direct = await fetch(`${fake.url}/repos/ces-demo/widgets/commits?per_page=7`, {
      headers: { authorization: 'Bearer ghp_test_token_0001' },
    });
    assert.deepEqual(res.json.result, await direct.json());
    assert.deepEqual(Object.keys(res.json), ['status', 'result', 'connector_metadata', 'execution_metadata']);
    assert.equal(res.json.connector_metadata.has_next_page, true);
    assert.equal(res.json.execution_metadata.connector_instance_id, `source_id:${connectorId}`);
  });

  test('an untrimmed list is written on as bytes, its records never built; a trimmed one is parsed', async () => {
    const runtime = h.deps.runtime;
    const execute = runtime.execute.bind(runtime);
    // Each answer the runtime gives: whether the records were asked for unparsed, and what it answered.
    const seen: Array<{ unparsed: boolean | undefined; kind: string }> = [];
    // A comment after the list's bytes: the reply still carries it if nothing parsed them on the way (a parse
    // would fail UPSTREAM_BAD_RESPONSE).
    const mark = Buffer.from('/* never parsed */');
    runtime.execute = async (input) => {
      const out = await execute(input);
      seen.push({ unparsed: input.unparsedRecords, kind: out.payload.kind });
      const { payload } = out;
      return payload.kind === 'bytes'
        ? { ...out, payload: { ...payload, parts: [...payload.parts, mark] } }
        : out;
    };
    try {
      const params = { owner: 'ces-demo', repo: 'widgets', per_page: 4 };
      const whole = await exec({ entity: 'commits', action: 'list', params });
      const trimmed = await exec({ entity: 'commits', action: 'list', params, select_fields: ['sha'] });
      assert.equal(whole.status, 200, whole.body);
      assert.equal(trimmed.status, 200, trimmed.body);
      assert.ok(whole.body.includes(`]${mark},"connector_metadata":`), whole.body.slice(-400));
      const records = JSON.parse(whole.body.replace(String(mark), '')).result;
      assert.deepEqual(
        trimmed.json.result,
        records.map((c: { sha: string }) => ({ sha: c.sha })),
      );
      assert.deepEqual(seen, [
        { unparsed: true, kind: 'bytes' },
        { unparsed: false, kind: 'records' },
      ]);
    } finally {
      runtime.execute = execute;
    }
  });

  test('select_fields and exclude_fields trim the result', async () => {
    const res = await exec({
      entity: 'issues',
      action: 'list',
      params: { owner: 'ces-demo', repo: 'widgets', per_page: 2 },
      select_fields: ['number', 'title', 'user.login'],
    });
    assert.equal(res.status, 200, res.body);
    for (const issue of res.json.result)
      assert.deepEqual(Object.keys(issue).sort(), ['number', 'title', 'user']);
    assert.deepEqual(Object.keys(res.json.result[0].user), ['login']);
    const ex = await exec({
      entity: 'users',
      action: 'get',
      params: { username: 'octocat' },
      exclude_fields: ['login'],
    });
    assert.ok(!('login' in ex.json.result));
  });

  test('bad calls are refused with a 422 before any upstream request', async () => {
    const mark = fake.requests.length;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ entity: 'isues', action: 'list', params: {} }, 'UNKNOWN_ENTITY', /issues/],
      [{ entity: 'issues', action: 'destroy', params: {} }, 'UNKNOWN_ACTION', /list/],
      // (owner and repo the connector's single repository answers: runtime/scoping.ts; number nothing does)
      [{ entity: 'comments', action: 'list', params: { owner: 'a', repo: 'b' } }, 'INVALID_PARAMS', /number/],
      [
        { entity: 'issues', action: 'list', params: { owner: 'a', repo: 'b', per_page: 'ten' } },
        'INVALID_PARAMS',
        /per_page/,
      ],
      [
        { entity: 'issues', action: 'list', params: { owner: 'a', repo: 'b', colour: 1 } },
        'INVALID_PARAMS',
        /colour/,
      ],
      [
        { entity: 'issues', action: 'list', params: { owner: 'a', repo: 'b', cursor: 'forged' } },
        'INVALID_CURSOR',
        /cursor/,
      ],
    ];
    for (const [body, code, mention] of cases) {
      const res = await exec(body);
      assert.equal(res.status, 422, res.body);
      assert.equal(res.json.code, code, res.body);
      assert.match(res.body, mention);
    }
    assert.equal(fake.requests.length, mark, 'no request reached the provider');
  });

  test('a cursor of another connector is refused', async () => {
    const other = (await createGithubConnector(h, token, { name: 'second' })).json.id;
    const first = await exec({
      entity: 'issues',
      action: 'list',
      params: { owner: 'octokit-fixture-org', repo: 'paginate-issues', per_page: 3 },
    });
    const cursor = first.json.connector_metadata.end_cursor;
    const res = await exec(
      {
        entity: 'issues',
        action: 'list',
        params: { owner: 'octokit-fixture-org', repo: 'paginate-issues', cursor },
      },
      other,
    );
    assert.equal(res.status, 422);
    assert.equal(res.json.code, 'INVALID_CURSOR');
  });

  test('upstream failures map to clear codes', async () => {
    fake.failNext({
      status: 401,
      body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
    });
    const auth = await exec({ entity: 'users', action: 'get', params: { username: 'octocat' } });
    assert.equal(auth.status, 424, auth.body);
    assert.equal(auth.json.code, 'UPSTREAM_AUTH_FAILED');

    // A Retry-After beyond the retry policy's cap (30 s) is passed to the client at once instead of waited out.
    fake.failNext({ status: 429, headers: { 'retry-after': '70' }, body: { message: 'slow down' } });
    const limited = await exec({ entity: 'users', action: 'get', params: { username: 'octocat' } });
    assert.equal(limited.status, 429, limited.body);
    assert.equal(limited.json.code, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '70');

    const missing = await exec({
      entity: 'repositories',
      action: 'get',
      params: { owner: 'ces-demo', repo: 'nope' },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');

    // GETs are retried (3 attempts by default), so the fault must outlast them.
    fake.failNext({ status: 500, body: 'internal <secret-stack-trace>', times: 3 });
    const broken = await exec({ entity: 'users', action: 'get', params: { username: 'octocat' } });
    assert.ok(broken.status === 502, broken.body);
    assert.ok(!broken.body.includes('secret-stack-trace'));

    const healthy = await h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(healthy.status, 200);
  });

  test('an inactive workspace blocks execute with a clear 403', async () => {
    const set = (status: string) =>
      h.inject({ method: 'PUT', url: `/api/v1/workspaces/${h.boot.workspace_id}`, token, body: { status } });
    assert.equal((await set('inactive')).status, 200);
    const res = await exec({ entity: 'users', action: 'get', params: { username: 'octocat' } });
    assert.equal(res.status, 403);
    assert.equal(res.json.code, 'WORKSPACE_INACTIVE');
    assert.equal((await set('active')).status, 200);
    const again = await exec({ entity: 'users', action: 'get', params: { username: 'octocat' } });
    assert.equal(again.status, 200);
  });
});
