// The hosted catalog's param names beside ours: a param's own `aliases` (GitHub commits.get `sha` for `ref`,
// repositories.list `username` for `owner`) and a connector's `execute_param_aliases` (GitHub's `after` for the
// page cursor, `fields` for select_fields), through the HTTP API against the GitHub fake; and their load checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { catalogDetail } from '../../src/connectors/catalog.ts';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import {
  createGithubConnector,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';
import { ACME_YAML, loadErrors } from '../unit/connectors/helpers.ts';
import { assertError } from './assertions.ts';

const widgets = { owner: 'ces-demo', repo: 'widgets' };

describe('param aliases through the HTTP API (GitHub)', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let id: string;
  const exec = (body: Record<string, unknown>) =>
    h.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, token, body });

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, { CES_SYNC_ENABLED: 'false' }));
    token = await h.token();
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    id = res.json.id;
  });
  after(async () => {
    await close();
    assert.deepEqual(fake.unhandled, []);
  });

  test('a param under its alias is sent as the param', async () => {
    const byRef = await exec({ entity: 'commits', action: 'get', params: { ...widgets, ref: 'main' } });
    assert.equal(byRef.status, 200, byRef.body);
    const bySha = await exec({ entity: 'commits', action: 'get', params: { ...widgets, sha: 'main' } });
    assert.equal(bySha.status, 200, bySha.body);
    assert.deepEqual(bySha.json.result, byRef.json.result);
    assert.equal(fake.requests.at(-1)?.path, '/repos/ces-demo/widgets/commits/main');

    const repos = await exec({ entity: 'repositories', action: 'list', params: { username: 'ces-demo' } });
    assert.equal(repos.status, 200, repos.body);
    assert.match(fake.requests.at(-1)?.path ?? '', /^\/users\/ces-demo\/repos/);
  });

  test('the same param under two names is a 422 naming it, and nothing is sent', async () => {
    const sent = fake.requests.length;
    const res = await exec({
      entity: 'commits',
      action: 'get',
      params: { ...widgets, ref: 'main', sha: 'x' },
    });
    assertError(res, 422, 'INVALID_PARAMS');
    assert.equal(res.json.errors[0].field, 'params.ref');
    assert.equal(fake.requests.length, sent);
  });

  test('`after` pages like cursor, and `fields` trims like select_fields', async () => {
    const first = await exec({ entity: 'issues', action: 'list', params: { ...widgets, per_page: 2 } });
    assert.equal(first.status, 200, first.body);
    const cursor = first.json.connector_metadata.end_cursor;
    assert.ok(cursor);
    const viaCursor = await exec({ entity: 'issues', action: 'list', params: { cursor } });
    const viaAfter = await exec({ entity: 'issues', action: 'list', params: { after: cursor } });
    assert.equal(viaAfter.status, 200, viaAfter.body);
    assert.deepEqual(viaAfter.json.result, viaCursor.json.result);
    assert.notDeepEqual(viaAfter.json.result, first.json.result);

    const trimmed = await exec({
      entity: 'issues',
      action: 'list',
      params: { ...widgets, per_page: 2, fields: ['number', 'title'] },
    });
    assert.equal(trimmed.status, 200, trimmed.body);
    assert.deepEqual(Object.keys(trimmed.json.result[0]).sort(), ['number', 'title']);
  });

  test('alias and own name together, or a bad `fields`, are 422s', async () => {
    const both = await exec({ entity: 'issues', action: 'list', params: { cursor: 'a', after: 'b' } });
    assertError(both, 422, 'INVALID_PARAMS');
    assert.equal(both.json.errors[0].field, 'params.after');
    const twice = await exec({
      entity: 'issues',
      action: 'list',
      params: { ...widgets, fields: ['title'] },
      select_fields: ['number'],
    });
    assertError(twice, 422, 'INVALID_PARAMS');
    const bad = await exec({ entity: 'issues', action: 'list', params: { ...widgets, fields: 'title' } });
    assertError(bad, 422, 'INVALID_PARAMS');
    assert.equal(bad.json.errors[0].field, 'params.fields');
  });

  test('the catalog shows the aliases', () => {
    const github = DefinitionRegistry.default().bySlug('github')!;
    const detail = catalogDetail(github);
    const commits = detail.entities.find((e) => e.name === 'commits')!;
    const get = commits.actions.find((a) => a.name === 'get')!;
    assert.deepEqual(get.params.find((p) => p.name === 'ref')?.aliases, ['sha']);
    const list = detail.entities.find((e) => e.name === 'issues')!.actions.find((a) => a.name === 'list')!;
    assert.deepEqual(list.params.find((p) => p.name === 'cursor')?.aliases, ['after']);
    assert.ok(list.params.some((p) => p.name === 'fields'));
  });
});

describe('alias declarations are checked at load', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes on purpose
  const acmeWith = (change: (doc: any) => void) => {
    const doc = parse(ACME_YAML);
    change(doc);
    return loadErrors(doc, 'acme.yaml');
  };

  test('a param alias may not be another param, another alias, or cursor', () => {
    const errors = acmeWith((doc) => {
      const params = doc.entities[0].actions.list.params;
      const [first, second] = Object.keys(params) as [string, string];
      params[first].aliases = [second, 'cursor'];
    });
    assert.ok(
      errors.some((e) => /\/entities\/0\/actions\/list\/params\/\w+\/aliases: '\w+' is already/.test(e)),
      errors.join('\n'),
    );
    assert.ok(
      errors.some((e) => /aliases: 'cursor' is reserved by ces/.test(e)),
      errors.join('\n'),
    );
  });

  test('an execute param alias may not be a param of any action', () => {
    const errors = acmeWith((doc) => {
      const params = doc.entities[0].actions.list.params;
      doc.execute_param_aliases = { cursor: [Object.keys(params)[0]], select_fields: ['cursor'] };
    });
    assert.ok(
      errors.some((e) =>
        /\/execute_param_aliases\/cursor\/0: '\w+' is also a param at \/entities\/0/.test(e),
      ),
      errors.join('\n'),
    );
    assert.ok(
      errors.some((e) => /\/execute_param_aliases\/select_fields\/0: 'cursor' is already/.test(e)),
      errors.join('\n'),
    );
  });
});
