// Format options added for Zendesk but declared generically: base URL variables filled from credentials
// (`credential_field`), params the runtime sends by default or refuses in combination (`send_default`,
// `conflicts_with`) and the `first_of` paging style.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { catalogDetail } from '../../../src/connectors/catalog.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { nextPage } from '../../../src/connectors/runtime/paginators.ts';
import { resolveAction, validateParams } from '../../../src/connectors/runtime/params.ts';
import { buildRequest, resolveBaseUrl } from '../../../src/connectors/runtime/request.ts';
import type { Pagination } from '../../../src/connectors/schema.ts';
import { DomainError } from '../../../src/errors.ts';
import { ACME_YAML, loadErrors } from './helpers.ts';

const zendesk = DefinitionRegistry.default().bySlug('zendesk-support')!;
const token = (values: Record<string, string>) => ({
  option: 'API Token',
  values: { email: 'a@b.c', api_token: 't', ...values },
});

function rejects(fn: () => unknown, code: string, check: (e: DomainError) => void) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.message);
    check(err);
    return true;
  });
}

/** ACME (test/unit/connectors/helpers.ts) with one change to its parsed document. */
// biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes on purpose
function acmeWith(change: (doc: any) => void): string[] {
  const doc = parse(ACME_YAML);
  change(doc);
  return loadErrors(doc, 'acme.yaml');
}

describe('base URL variables filled from credentials', () => {
  it('takes the credential first, then replication_config, and keeps the base path', () => {
    assert.equal(
      resolveBaseUrl(zendesk, {}, {}, token({ subdomain: 'acme' })).href,
      'https://acme.zendesk.com/api/v2',
    );
    assert.equal(
      resolveBaseUrl(zendesk, { subdomain: 'globex' }, {}, token({})).href,
      'https://globex.zendesk.com/api/v2',
    );
    assert.equal(
      resolveBaseUrl(zendesk, { subdomain: 'globex' }, {}, token({ subdomain: 'acme' })).href,
      'https://acme.zendesk.com/api/v2',
    );
    const oauth = { option: 'OAuth2.0', values: { access_token: 'x', subdomain: 'initech' } };
    assert.equal(resolveBaseUrl(zendesk, {}, {}, oauth).origin, 'https://initech.zendesk.com');
  });

  it('names both sources when neither has a value', () => {
    rejects(
      () => resolveBaseUrl(zendesk, {}, {}, token({})),
      'VALIDATION_ERROR',
      (e) => {
        assert.match(e.message, /credentials\.subdomain or replication_config\.subdomain is required/);
        assert.equal(e.errors[0]?.field, 'credentials.subdomain');
      },
    );
  });

  it('refuses a credential that would change the host, naming the field but not the value', () => {
    for (const bad of ['evil.example/x', 'acme.zendesk.com', 'a@evil', '-acme', 'acme#']) {
      rejects(
        () => resolveBaseUrl(zendesk, {}, {}, token({ subdomain: bad })),
        'VALIDATION_ERROR',
        (e) => {
          assert.match(e.message, /^credentials\.subdomain must match /);
          assert.ok(!e.message.includes(bad), e.message);
          assert.equal(e.errors[0]?.field, 'credentials.subdomain');
        },
      );
    }
    rejects(
      () => resolveBaseUrl(zendesk, { subdomain: 'x.evil' }, {}, token({})),
      'VALIDATION_ERROR',
      (e) => assert.match(e.message, /^replication_config\.subdomain must match/),
    );
  });

  it('lets the operator override replace the whole base URL', () => {
    const base = resolveBaseUrl(zendesk, {}, { 'zendesk-support': 'http://127.0.0.1:9/api/v2' }, token({}));
    assert.deepEqual(base, {
      href: 'http://127.0.0.1:9/api/v2',
      origin: 'http://127.0.0.1:9',
      guarded: false,
    });
  });

  it('is checked at load: an existing, non-secret field with a pattern and a fallback for other options', () => {
    const withVar = (v: Record<string, unknown>) =>
      acmeWith((doc) => {
        doc.base_url_variables.subdomain = { description: 'Sub.', pattern: '^[a-z]+$', ...v };
      });
    assert.deepEqual(withVar({ credential_field: 'email', config_key: 'subdomain' }), []);
    assert.ok(
      withVar({ credential_field: 'api_token', config_key: 'subdomain' }).includes(
        "acme.yaml: /base_url_variables/subdomain/credential_field: 'api_token' is a secret field; a base URL must not hold a secret",
      ),
    );
    assert.ok(
      withVar({ credential_field: 'nope', config_key: 'subdomain' }).includes(
        "acme.yaml: /base_url_variables/subdomain/credential_field: no credential option has a field 'nope'",
      ),
    );
    const noFallback = withVar({ credential_field: 'email' });
    assert.ok(
      noFallback.includes(
        "acme.yaml: /base_url_variables/subdomain: credential option 0 ('API Key') has no 'email' and there is no config_key or default",
      ),
      noFallback.join('\n'),
    );
    assert.ok(
      acmeWith((doc) => {
        doc.base_url_variables.subdomain = {
          description: 'Sub.',
          credential_field: 'email',
          config_key: 'subdomain',
        };
      }).includes(
        'acme.yaml: /base_url_variables/subdomain/pattern: required for a variable filled from credentials',
      ),
    );
  });
});

describe('send_default and conflicts_with', () => {
  const list = resolveAction(zendesk, 'tickets', 'list');
  const base = resolveBaseUrl(zendesk, {}, {}, token({ subdomain: 'acme' }));
  const build = (params: Record<string, unknown>) =>
    buildRequest(base, list.action.request, list.action.params ?? {}, params).url;

  it('sends the default page[size] unless the client picks offset paging', () => {
    assert.equal(build({}).searchParams.get('page[size]'), '100');
    assert.equal(build({ page_size: 5 }).searchParams.get('page[size]'), '5');
    assert.equal(build({ sort: '-updated_at' }).search, '?page%5Bsize%5D=100&sort=-updated_at');
    for (const offset of [{ page: 2 }, { per_page: 10 }, { sort_by: 'status' }, { sort_order: 'desc' }]) {
      assert.equal(build(offset).searchParams.has('page[size]'), false, JSON.stringify(offset));
    }
    assert.equal(build({ page: 2, per_page: 10 }).search, '?page=2&per_page=10');
  });

  it('refuses params of both modes before any request, naming both', () => {
    rejects(
      () => validateParams(list, { page_size: 10, page: 2 }),
      'INVALID_PARAMS',
      (e) => {
        assert.match(e.message, /'page_size' can't be combined with 'page'/);
        assert.deepEqual(
          e.errors.map((x) => [x.field, x.error_code]),
          [['params.page_size', 'conflict']],
        );
      },
    );
    rejects(
      () => validateParams(list, { sort: 'id', sort_by: 'id' }),
      'INVALID_PARAMS',
      (e) => assert.match(e.message, /'sort' can't be combined with 'sort_by'/),
    );
    validateParams(list, { page: 2, per_page: 10, sort_by: 'id', sort_order: 'desc' });
    validateParams(list, { page_size: 10, sort: '-id', page: null });
    // With a cursor the other params are ignored, so they can't conflict.
    validateParams(list, { cursor: 'abc', page_size: 10, page: 2 });
  });

  it('shows conflicts in the catalog and checks both options at load', () => {
    const action = catalogDetail(zendesk)
      .entities.find((e) => e.name === 'tickets')!
      .actions.find((a) => a.name === 'list')!;
    const pageSize = action.params.find((p) => p.name === 'page_size')!;
    assert.deepEqual(pageSize.conflicts_with, ['page', 'per_page', 'sort_by', 'sort_order']);
    assert.equal(pageSize.default, 100);
    const errors = acmeWith((doc) => {
      const params = doc.entities[0].actions.list.params;
      params.size.send_default = true;
      params.tags.conflicts_with = ['size', 'missing', 'tags'];
    });
    assert.deepEqual(errors, [
      'acme.yaml: /entities/0/actions/list/params/size/send_default: needs a default to send',
      "acme.yaml: /entities/0/actions/list/params/tags/conflicts_with/1: 'missing' is not another param of this action",
      "acme.yaml: /entities/0/actions/list/params/tags/conflicts_with/2: 'tags' is not another param of this action",
    ]);
  });
});

describe('first_of paging', () => {
  const dual: Pagination = {
    type: 'first_of',
    styles: [
      {
        type: 'body_cursor',
        cursor_path: ['meta', 'after_cursor'],
        param: 'page[after]',
        has_more_path: ['meta', 'has_more'],
      },
      { type: 'next_url', path: ['next_page'] },
    ],
  };
  const url = new URL('https://acme.zendesk.com/api/v2/tickets?page%5Bsize%5D=2');
  const next = (body: unknown) =>
    nextPage(dual, { url, headers: {}, body, records: [1, 2] })?.url.href ?? null;

  it('follows the style the answer carries and stops when none finds a page', () => {
    assert.equal(
      next({ meta: { has_more: true, after_cursor: 'xyz' }, links: { next: 'ignored' } }),
      'https://acme.zendesk.com/api/v2/tickets?page%5Bsize%5D=2&page%5Bafter%5D=xyz',
    );
    assert.equal(
      next({ next_page: 'https://acme.zendesk.com/api/v2/tickets.json?page=3&per_page=2', count: 9 }),
      'https://acme.zendesk.com/api/v2/tickets.json?page=3&per_page=2',
    );
    // Zendesk's last cursor page still has after_cursor and links.next; has_more decides.
    assert.equal(
      next({ meta: { has_more: false, after_cursor: 'xyz' }, links: { next: 'https://x/y' } }),
      null,
    );
    assert.equal(next({ next_page: null, previous_page: 'https://x/y', count: 2 }), null);
  });

  it('is validated at load like any style', () => {
    const errors = acmeWith((doc) => {
      doc.entities[1].actions.list.pagination = { type: 'first_of', styles: [{ type: 'next_url' }] };
    });
    assert.ok(
      errors.some((l) => /pagination\/styles/.test(l)),
      errors.join('\n'),
    );
  });
});
