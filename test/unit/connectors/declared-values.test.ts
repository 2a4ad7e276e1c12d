// Values a definition gives itself must pass the checks a client's value would: a fixed sync param, a default
// sent on every request, a base URL variable's default. Before these load checks such a definition loaded and
// then failed every sync (or every call) with INVALID_PARAMS; now the load names the file and the JSON pointer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ACME_YAML, loadErrors } from './helpers.ts';

/** ACME (helpers.ts) with a replicated `things` list filtered by a patterned `status`, and a sent API version. */
function acme(v: { sync?: string; sent?: string; subdomain?: string } = {}): string[] {
  const doc = parse(ACME_YAML);
  if (v.subdomain !== undefined) doc.base_url_variables.subdomain.default = v.subdomain;
  Object.assign(doc.entities[0].actions.list.params, {
    status: { type: 'string', pattern: '^(open|closed|all)$', description: 'Which things.' },
    api_version: {
      type: 'string',
      in: 'header',
      pattern: '^\\d{4}-\\d{2}$',
      default: v.sent ?? '2024-05',
      send_default: true,
      description: 'API version.',
    },
  });
  doc.entities[0].context_store = {
    params: { folder: 'inbox', status: v.sync ?? 'all', size: 50 },
    fields: [{ name: 'id', type: 'integer' }],
  };
  return loadErrors(doc, 'acme.yaml');
}

describe('values a definition declares for itself', () => {
  it('a definition whose own values pass its checks loads', () => {
    assert.deepEqual(acme(), []);
    assert.deepEqual(acme({ subdomain: 'demo' }), []);
  });

  it('a sync param that breaks its own pattern is a load error naming the file and the pointer', () => {
    assert.deepEqual(acme({ sync: 'every' }), [
      `acme.yaml: /entities/0/context_store/params/status: "every" would fail every sync request: 'status' must match ^(open|closed|all)$`,
    ]);
  });

  it('a default sent on every request that breaks its own pattern is one too', () => {
    assert.deepEqual(acme({ sent: '2024-5' }), [
      `acme.yaml: /entities/0/actions/list/params/api_version/default: is sent on every request but fails its own check: 'api_version' must match ^\\d{4}-\\d{2}$`,
    ]);
  });

  it("a base URL variable's default that breaks its pattern is one too", () => {
    assert.deepEqual(acme({ subdomain: 'Demo!' }), [
      "acme.yaml: /base_url_variables/subdomain/default: does not match the variable's pattern ^[a-z0-9-]+$",
    ]);
  });
});
