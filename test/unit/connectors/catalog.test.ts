import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogDetail, catalogListItem } from '../../../src/connectors/catalog.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';

const github = DefinitionRegistry.default().bySlug('github')!;

describe('catalog', () => {
  it('lists a definition with the reference camelCase members', () => {
    assert.deepEqual(catalogListItem(github), {
      sourceDefinitionId: 'ef69ef6e-aa7f-4af1-a01d-ef775033524e',
      name: 'GitHub',
      iconUrl: github.icon_url,
      supportLevel: 'certified',
    });
  });

  it('describes credential options with secret fields marked', () => {
    const detail = catalogDetail(github);
    assert.equal(detail.connector_type, 'github');
    assert.deepEqual(
      detail.credential_options.map((o) => o.option_title),
      ['PAT Credentials', 'OAuth Credentials'],
    );
    const pat = detail.credential_options[0]!.schema as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    assert.deepEqual(pat.required, ['personal_access_token']);
    assert.equal(pat.properties.personal_access_token!['x-secret'], true);
    assert.equal(pat.properties.personal_access_token!.airbyte_secret, true);
  });

  it('describes entities, actions and params, with cursor on paged actions only', () => {
    const issues = catalogDetail(github).entities.find((e) => e.name === 'issues')!;
    assert.deepEqual(issues.primary_key, ['database_id']);
    const list = issues.actions.find((a) => a.name === 'list')!;
    assert.equal(list.paginated, true);
    const state = list.params.find((p) => p.name === 'state')!;
    assert.deepEqual(state, {
      name: 'state',
      type: 'string',
      required: false,
      description: 'Issue state.',
      enum: ['open', 'closed', 'all'],
      default: 'open',
      conflicts_with: ['states'],
    });
    assert.ok(list.params.some((p) => p.name === 'cursor'));
    const get = issues.actions.find((a) => a.name === 'get')!;
    assert.equal(get.paginated, false);
    assert.ok(!get.params.some((p) => p.name === 'cursor'));
    assert.deepEqual(
      get.params.filter((p) => p.required).map((p) => p.name),
      ['owner', 'repo', 'number'],
    );
  });

  it('builds a reference-compatible connectionSpecification', () => {
    const spec = catalogDetail(github).definition.spec;
    assert.equal(spec.documentationUrl, 'https://docs.github.com/en/rest');
    const cs = spec.connectionSpecification as {
      required: string[];
      properties: {
        credentials: {
          oneOf: Array<{ required: string[]; properties: { option_title: { const: string } } }>;
        };
        repositories: unknown;
      };
    };
    assert.deepEqual(cs.required, ['credentials', 'repositories']);
    assert.deepEqual(
      cs.properties.credentials.oneOf.map((o) => o.properties.option_title.const),
      ['PAT Credentials', 'OAuth Credentials'],
    );
    assert.deepEqual(cs.properties.credentials.oneOf[1]!.required, ['option_title', 'access_token']);
    assert.ok(cs.properties.repositories);
  });

  it('hands out copies a caller may change', () => {
    const detail = catalogDetail(github);
    (detail.replication_config as { required: string[] }).required.push('x');
    assert.deepEqual(github.replication_config.required, ['repositories']);
  });
});
