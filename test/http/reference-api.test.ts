// The reference's connector shapes, source templates and configuration checks, as a client of the hosted API
// would use them, with every answer validated against the published spec's own schemas
// (test/reference/agent-api.openapi.json, test/helpers/reference-spec.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN, startGithubFake } from '../connectors/github/fake/index.ts';
import {
  createGithubConnector,
  GITHUB_DEFINITION_ID,
  type GithubFake,
  type Harness,
} from '../connectors/github/harness.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_SUBDOMAIN,
  type ZendeskFake,
} from '../connectors/zendesk-support/fake/index.ts';
import { startHarness } from '../helpers/harness.ts';
import { assertMatchesReference } from '../helpers/reference-spec.ts';
import { assertError } from './assertions.ts';

const CONNECTORS = '/api/v1/integrations/connectors';
const TEMPLATES = '/api/v1/integrations/templates/sources';

describe('reference API: connectors, source templates, checks', () => {
  let h: Harness;
  let fake: GithubFake;
  let zendesk: ZendeskFake;
  let close: () => Promise<unknown>;
  let token: string;

  before(async () => {
    zendesk = await startZendeskFake();
    fake = await startGithubFake({ tokens: [GITHUB_FAKE_DEFAULT_TOKEN] });
    h = await startHarness({
      CES_SYNC_ENABLED: 'false',
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url, 'zendesk-support': zendesk.url }),
    });
    close = () => Promise.all([h.close(), fake.close()]);
    token = await h.token();
  });
  after(async () => {
    await close();
    await zendesk.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    t = token,
  ) => h.inject({ method, url, token: t, ...(body === undefined ? {} : { body }) });

  test("create takes every member of the reference's request, nulls as not given; answers match its schemas", async () => {
    const created = await call('POST', CONNECTORS, {
      workspace_name: 'default',
      connector_type: 'github',
      definition_id: null,
      source_template_id: null,
      name: null,
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
      environment: null,
      entities: [{ entity: 'issues', modes: ['read'] }, { entity: 'labels' }],
      server_side_oauth_secret_id: null,
      selected_connection_template_tags: ['warehouse'],
      selected_connection_template_tags_mode: 'all',
    });
    assert.equal(created.status, 200, created.body);
    assertMatchesReference('POST', CONNECTORS, 200, created.json);
    assert.equal(created.json.source_template.source_definition_id, GITHUB_DEFINITION_ID);
    assert.deepEqual(created.json.entities, [{ entity: 'issues', modes: ['read'] }, { entity: 'labels' }]);
    const id = created.json.id as string;

    const got = await call('GET', `${CONNECTORS}/${id}`);
    assertMatchesReference('GET', `${CONNECTORS}/{id}`, 200, got.json);
    assert.deepEqual(got.json.source_template, created.json.source_template);

    const list = await call('GET', `${CONNECTORS}?workspace_name=default`);
    assertMatchesReference('GET', CONNECTORS, 200, list.json);
    const item = list.json.data.find((c: { id: string }) => c.id === id);
    assert.equal(item.summarized_source_template.connector_name, 'github');
    assert.equal(item.summarized_source_template.actor_definition_id, GITHUB_DEFINITION_ID);

    // Only the entities asked for are indexed.
    const inspect = await call('GET', `${CONNECTORS}/${id}/inspect`);
    assertMatchesReference('GET', `${CONNECTORS}/{id}/inspect`, 200, inspect.json);
    assert.equal(inspect.json.source_config_template_id, created.json.source_template.id);
    assert.equal(inspect.json.docs_skill_id, `connector-source:${GITHUB_DEFINITION_ID}`);
    assert.deepEqual(inspect.json.context_store.entities.map((e: { entity: string }) => e.entity).sort(), [
      'issues',
      'labels',
    ]);

    // Update: null is "unchanged"; entities [] clears the selection.
    const renamed = await call('PUT', `${CONNECTORS}/${id}`, {
      name: 'renamed',
      replication_config: null,
      entities: null,
    });
    assert.equal(renamed.status, 200, renamed.body);
    assertMatchesReference('PUT', `${CONNECTORS}/{id}`, 200, renamed.json);
    assert.deepEqual(renamed.json.entities, created.json.entities);
    const cleared = await call('PUT', `${CONNECTORS}/${id}`, { entities: [] });
    assert.equal(cleared.json.entities, null);

    const deleted = await call('DELETE', `${CONNECTORS}/${id}`);
    assert.equal(deleted.status, 202, deleted.body);
    assertMatchesReference('DELETE', `${CONNECTORS}/{id}`, 202, deleted.json);
    assert.equal((await call('GET', `${CONNECTORS}/${id}`)).status, 404);
  });

  test('environment fills the server-URL settings; unknown members of it, entities and secret ids are refused', async () => {
    const created = await call('POST', CONNECTORS, {
      workspace_name: 'default',
      connector_type: 'zendesk-support',
      credentials: { email: ZENDESK_FAKE_EMAIL, api_token: ZENDESK_FAKE_API_TOKEN },
      environment: { subdomain: ZENDESK_FAKE_SUBDOMAIN },
    });
    assert.equal(created.status, 200, created.body);
    assert.equal(created.json.replication_config.subdomain, ZENDESK_FAKE_SUBDOMAIN);
    const base = {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    };
    const before = fake.requests.length;
    for (const [extra, field] of [
      [{ environment: { region: 'eu' } }, 'environment.region'],
      [{ entities: [{ entity: 'nope' }] }, 'entities.0.entity'],
      [{ server_side_oauth_secret_id: 'abc' }, 'server_side_oauth_secret_id'],
      [{ entities: [{ entity: 'issues', modes: ['delete'] }] }, null],
      [{ surprise: 1 }, null],
    ] as const) {
      const res = await call('POST', CONNECTORS, { ...base, ...extra });
      assertError(res, 422, 'VALIDATION_ERROR');
      if (field)
        assert.ok(
          res.json.errors.some((e: { field: string }) => e.field === field),
          res.body,
        );
    }
    assert.equal(fake.requests.length, before, 'a refused create called the provider');
    const none = await call('POST', CONNECTORS, { ...base, connector_type: undefined });
    assertError(none, 422, 'VALIDATION_ERROR');
    assert.match(none.json.message, /One of connector_type, definition_id, or source_template_id/);
  });

  test('source templates: create, list by tags, get, patch, clone, delete, with the reference shapes', async () => {
    const made = await call('POST', TEMPLATES, {
      actor_definition_id: GITHUB_DEFINITION_ID,
      partial_default_config: { repositories: ['ces-demo/widgets'] },
      name: 'Widgets only',
      customization: { stream_selection_mode: 'whitelist', stream_whitelist: ['issues', 'labels'] },
      tags: ['support', 'eu'],
    });
    assert.equal(made.status, 200, made.body);
    assertMatchesReference('POST', TEMPLATES, 200, made.json);
    const id = made.json.id as string;
    assert.equal(made.json.name, 'Widgets only');
    assert.equal(made.json.user_config_spec.connectionSpecification.type, 'object');

    const got = await call('GET', `${TEMPLATES}/${id}`);
    assertMatchesReference('GET', `${TEMPLATES}/{id}`, 200, got.json);
    assert.equal(got.json.connector_name, 'github');
    assert.ok(typeof got.json.auth_tooltip === 'object');

    const list = async (query: string) => {
      const res = await call('GET', `${TEMPLATES}${query}`);
      assert.equal(res.status, 200, res.body);
      assertMatchesReference('GET', TEMPLATES, 200, res.json);
      return res.json.data.map((t: { id: string }) => t.id) as string[];
    };
    assert.deepEqual(await list(''), [id]);
    assert.deepEqual(await list('?tags=eu'), [id]);
    assert.deepEqual(await list('?tags=eu&tags=us&tags_mode=all'), []);
    assert.deepEqual(await list('?tags=eu&tags=us&tags_mode=any'), [id]);
    const global = await list('?use_global=true');
    assert.ok(global.length >= 10 && global.includes(id), 'every connector type has its default template');

    const patched = await call('PATCH', `${TEMPLATES}/${id}`, {
      name: 'Widgets',
      propagate: true,
      mode: null,
    });
    assert.equal(patched.status, 200, patched.body);
    assertMatchesReference('PATCH', `${TEMPLATES}/{id}`, 200, patched.json);
    assert.equal(patched.json.name, 'Widgets');
    assert.deepEqual(patched.json.partial_default_config, { repositories: ['ces-demo/widgets'] });

    const clone = await call('POST', TEMPLATES, { original_source_template_id: id, name: 'Copy' });
    assert.equal(clone.status, 200, clone.body);
    assert.deepEqual(clone.json.customization, made.json.customization);
    assert.notEqual(clone.json.id, id);

    // A connector made from it: the fixed config, only the whitelisted entities indexed.
    const fromTemplate = await call('POST', CONNECTORS, {
      workspace_name: 'default',
      source_template_id: id,
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
    });
    assert.equal(fromTemplate.status, 200, fromTemplate.body);
    assert.deepEqual(fromTemplate.json.replication_config.repositories, ['ces-demo/widgets']);
    assert.equal(fromTemplate.json.source_template.id, id);
    const inspect = await call('GET', `${CONNECTORS}/${fromTemplate.json.id}/inspect`);
    assert.deepEqual(inspect.json.context_store.entities.map((e: { entity: string }) => e.entity).sort(), [
      'issues',
      'labels',
    ]);
    const conflicting = await call('POST', CONNECTORS, {
      workspace_name: 'default',
      source_template_id: id,
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['someone/else'] },
    });
    assertError(conflicting, 422, 'VALIDATION_ERROR');
    assert.match(conflicting.json.message, /fixed/);
    // Two templates of one type: a create naming only the type must say which.
    const ambiguous = await createGithubConnector(h, token);
    assertError(ambiguous, 422, 'VALIDATION_ERROR');
    assert.ok(ambiguous.json.errors.some((e: { field: string }) => e.field === 'source_template_id'));

    // Default templates are the same for everyone: read-only.
    const defaultId =
      made.json.id === global[0] ? global[1] : global.find((g) => g !== id && g !== clone.json.id);
    assertError(await call('PATCH', `${TEMPLATES}/${defaultId}`, { name: 'x' }), 403, 'FORBIDDEN');
    assertError(await call('DELETE', `${TEMPLATES}/${defaultId}`), 403, 'FORBIDDEN');

    for (const t of [clone.json.id, id]) {
      const del = await call('DELETE', `${TEMPLATES}/${t}`);
      assert.equal(del.status, 200, del.body);
      assertMatchesReference('DELETE', `${TEMPLATES}/{id}`, 200, del.json);
    }
    assertError(await call('GET', `${TEMPLATES}/${id}`), 404, 'SOURCE_TEMPLATE_NOT_FOUND');
    // Its connector still works, shown with its type's default template.
    const after = await call('GET', `${CONNECTORS}/${fromTemplate.json.id}`);
    assert.equal(after.status, 200);
    assert.equal(after.json.source_template.partial_default_config.repositories, undefined);
  });

  test('templates: bad bodies are 422, other organizations see nothing, a token is required', async () => {
    for (const body of [
      {},
      { actor_definition_id: GITHUB_DEFINITION_ID },
      { actor_definition_id: GITHUB_DEFINITION_ID, partial_default_config: { repositories: 'x' } },
      {
        actor_definition_id: GITHUB_DEFINITION_ID,
        partial_default_config: {},
        customization: { stream_whitelist: ['nope'] },
      },
      {
        actor_definition_id: GITHUB_DEFINITION_ID,
        partial_default_config: {},
        original_source_template_id: GITHUB_DEFINITION_ID,
      },
      { actor_definition_id: GITHUB_DEFINITION_ID, partial_default_config: {}, mode: 'SOMETIMES' },
    ]) {
      assertError(await call('POST', TEMPLATES, body), 422, 'VALIDATION_ERROR');
    }
    assertError(
      await call('POST', TEMPLATES, {
        actor_definition_id: '00000000-0000-4000-8000-000000000000',
        partial_default_config: {},
      }),
      404,
      'DEFINITION_NOT_FOUND',
    );
    const mine = await call('POST', TEMPLATES, {
      actor_definition_id: GITHUB_DEFINITION_ID,
      partial_default_config: {},
    });
    assert.equal(mine.status, 200, mine.body);
    const other = await h.otherOrg();
    assertError(
      await call('GET', `${TEMPLATES}/${mine.json.id}`, undefined, other.token),
      404,
      'SOURCE_TEMPLATE_NOT_FOUND',
    );
    assertError(
      await call('PATCH', `${TEMPLATES}/${mine.json.id}`, { name: 'x' }, other.token),
      404,
      'SOURCE_TEMPLATE_NOT_FOUND',
    );
    assertError(
      await call('DELETE', `${TEMPLATES}/${mine.json.id}`, undefined, other.token),
      404,
      'SOURCE_TEMPLATE_NOT_FOUND',
    );
    assert.deepEqual((await call('GET', TEMPLATES, undefined, other.token)).json.data, []);
    const scoped = await call('POST', '/api/v1/account/applications/scoped-token', {
      workspace_name: 'default',
    });
    const scopedToken = scoped.json.token as string;
    assertError(
      await call(
        'POST',
        TEMPLATES,
        { actor_definition_id: GITHUB_DEFINITION_ID, partial_default_config: {} },
        scopedToken,
      ),
      403,
      'FORBIDDEN',
    );
    assertError(
      await call('DELETE', `${TEMPLATES}/${mine.json.id}`, undefined, scopedToken),
      403,
      'FORBIDDEN',
    );
    assert.equal((await call('GET', `${TEMPLATES}/${mine.json.id}`, undefined, scopedToken)).status, 200);
    const anonymous = await h.inject({ method: 'GET', url: TEMPLATES });
    assertError(anonymous, 401, 'UNAUTHENTICATED');
    assert.equal((await call('DELETE', `${TEMPLATES}/${mine.json.id}`)).status, 200);
  });

  test('check: a new configuration or a stored connector, without storing anything', async () => {
    const body = {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    };
    const count = async () => (await call('GET', CONNECTORS)).json.data.length as number;
    const before = await count();
    const ok = await call('POST', `${CONNECTORS}/check`, body);
    assert.equal(ok.status, 200, ok.body);
    assertMatchesReference('POST', `${CONNECTORS}/check`, 200, ok.json);
    assert.equal(ok.json.status, 'succeeded');
    const bad = await call('POST', `${CONNECTORS}/check`, {
      ...body,
      credentials: { personal_access_token: 'ghp_wrong' },
    });
    assert.equal(bad.status, 200, bad.body);
    assertMatchesReference('POST', `${CONNECTORS}/check`, 200, bad.json);
    assert.equal(bad.json.status, 'failed');
    assert.equal(bad.json.failure_reason.failure_type, 'config_error');
    assert.ok(!bad.body.includes('ghp_wrong'), 'the credential is never echoed');
    const shapeless = await call('POST', `${CONNECTORS}/check`, { ...body, credentials: { nope: 'x' } });
    assert.equal(shapeless.json.status, 'failed');
    assert.equal(await count(), before, 'a check stores nothing');
    assertError(
      await call('POST', `${CONNECTORS}/check`, { ...body, workspace_name: 'nowhere' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );

    const created = await createGithubConnector(h, token);
    assert.equal(created.status, 200, created.body);
    const id = created.json.id as string;
    const existing = await call('POST', `${CONNECTORS}/${id}/check`, {});
    assert.equal(existing.status, 200, existing.body);
    assertMatchesReference('POST', `${CONNECTORS}/{id}/check`, 200, existing.json);
    assert.equal(existing.json.status, 'succeeded');
    const withConfig = await call('POST', `${CONNECTORS}/${id}/check`, {
      replication_config: { repositories: ['ces-demo/widgets'], start_date: '2024-01-01T00:00:00Z' },
    });
    assert.equal(withConfig.json.status, 'succeeded', withConfig.body);
    // The stored credentials never go to a new destination.
    const moved = await call('POST', `${CONNECTORS}/${id}/check`, {
      replication_config: {
        repositories: ['ces-demo/widgets'],
        api_url: 'https://github.example.com/api/v3',
      },
    });
    assertError(moved, 422, 'VALIDATION_ERROR');
    const other = await h.otherOrg();
    assertError(await call('POST', `${CONNECTORS}/${id}/check`, {}, other.token), 404, 'CONNECTOR_NOT_FOUND');
    assertError(
      await h.inject({ method: 'POST', url: `${CONNECTORS}/${id}/check`, body: {} }),
      401,
      'UNAUTHENTICATED',
    );
  });
});
