// `request.query` templates: a query parameter whose text is built from params (a query language's clauses:
// Confluence's CQL, Salesforce's SOQL, Gmail's `q`), with the same guard body templates have.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { buildRequest } from '../../../src/connectors/runtime/request.ts';
import type { ParamDefinition, RequestDefinition } from '../../../src/connectors/schema.ts';
import { ACME_YAML, loadErrors } from './helpers.ts';

const base = { href: 'https://acme.example/api', origin: 'https://acme.example', guarded: true };
const params: Record<string, ParamDefinition> = {
  space: { type: 'string', pattern: '^[A-Z0-9]+$', description: 'Space key.' },
  since: { type: 'string', format: 'date-time', description: 'Changed at or after.' },
  text: { type: 'string', description: 'The client’s own search text.' },
  limit: { type: 'integer', description: 'Page size.' },
};
const request: RequestDefinition = {
  method: 'GET',
  path: '/search',
  query: {
    cql: ['type = page', 'and space = "{space}"', 'and lastmodified >= "{since}"', 'order by lastmodified'],
    expand: 'body',
    q: '{text}',
  },
};
const query = (values: Record<string, unknown>) => [
  ...buildRequest(base, request, params, values).url.searchParams.entries(),
];

describe('query templates', () => {
  it('writes the given params into their parts and leaves out the parts of absent ones', () => {
    assert.deepEqual(query({ space: 'ENG', since: '2024-05-01T00:00:00Z', limit: 25 }), [
      [
        'cql',
        'type = page and space = "ENG" and lastmodified >= "2024-05-01T00:00:00Z" order by lastmodified',
      ],
      ['expand', 'body'],
      ['limit', '25'],
    ]);
    assert.deepEqual(query({}), [
      ['cql', 'type = page order by lastmodified'],
      ['expand', 'body'],
    ]);
  });

  it('sends a member that is one placeholder only when its param is given, as the client wrote it', () => {
    assert.deepEqual(query({ text: 'from:ana after:2024/01/01' }).slice(2), [
      ['q', 'from:ana after:2024/01/01'],
    ]);
  });

  it('leaves out a member whose every part names an absent param, and writes numbers as text', () => {
    const req: RequestDefinition = {
      method: 'GET',
      path: '/m',
      query: { q: ['after:{after}'], n: '{after}' },
    };
    const p: Record<string, ParamDefinition> = { after: { type: 'integer', description: 'Unix seconds.' } };
    assert.equal(buildRequest(base, req, p, {}).url.search, '');
    assert.equal(
      buildRequest(base, req, p, { after: 1714521600 }).url.search,
      '?q=after%3A1714521600&n=1714521600',
    );
  });
});

// biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes on purpose
function acmeWith(change: (list: any) => void): string[] {
  const doc = parse(ACME_YAML);
  change(doc.entities[0].actions.list);
  return loadErrors(doc, 'acme.yaml');
}

describe('query template load checks', () => {
  it('accepts a template over guarded query params', () => {
    assert.deepEqual(
      acmeWith((list) => {
        list.params.since = { type: 'string', format: 'date-time', description: 'Since.' };
        list.request.query = { filter: ['kind = thing', 'and changed >= "{since}"'] };
      }),
      [],
    );
  });

  it('refuses an unguarded string written into text, an undeclared placeholder and a body param', () => {
    const errors = acmeWith((list) => {
      list.params.word = { type: 'string', description: 'Free text.' };
      list.params.other = { type: 'string', in: 'header', pattern: '^x$', description: 'A header.' };
      list.request.query = { filter: ['kind = "{word}"', 'and x = {missing}', '{other}'] };
    });
    assert.ok(
      errors.some((e) =>
        /params\/word: the query template writes it into text, so it needs a pattern/.test(e),
      ),
      errors.join('\n'),
    );
    assert.ok(errors.some((e) => /request\/query: placeholder \{missing\} is not a declared param/.test(e)));
    assert.ok(
      errors.some((e) =>
        /params\/other\/in: the query template places it, so it must be a query param/.test(e),
      ),
    );
  });

  it('refuses a template member that a query param also sends', () => {
    const errors = acmeWith((list) => {
      list.request.query = { size: '10' };
    });
    assert.ok(
      errors.some((e) => /params\/size: the query template already has a member 'size'/.test(e)),
      errors.join('\n'),
    );
  });
});
