import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { nextPage, type PageContext, parseLinkHeader } from '../../../src/connectors/runtime/paginators.ts';
import type { Pagination } from '../../../src/connectors/schema.ts';

/** The next page of a style whose next page is a URL only. */
function nextPageUrl(p: Pagination, c: PageContext): URL | null {
  const next = nextPage(p, c);
  assert.equal(next?.body, undefined);
  return next?.url ?? null;
}

const url = new URL('https://api.example/items?per_page=2');
const ctx = (over: Partial<PageContext>): PageContext => ({
  url,
  headers: {},
  body: {},
  records: [1, 2],
  ...over,
});

describe('parseLinkHeader', () => {
  it('reads GitHub Link headers, multiple rels and odd spacing', () => {
    const links = parseLinkHeader(
      '<https://api.github.com/repositories/1000/issues?per_page=3&page=2>; rel="next", <https://api.github.com/repositories/1000/issues?per_page=3&page=5>; rel="last"',
    );
    assert.equal(links.get('next'), 'https://api.github.com/repositories/1000/issues?per_page=3&page=2');
    assert.equal(links.get('last'), 'https://api.github.com/repositories/1000/issues?per_page=3&page=5');
    const odd = parseLinkHeader('</a?x=1> ;rel=NEXT ; title="t",</b>; rel="prev first"');
    assert.equal(odd.get('next'), '/a?x=1');
    assert.equal(odd.get('first'), '/b');
    assert.equal(parseLinkHeader('').size, 0);
  });
});

describe('nextPageUrl', () => {
  it('link_header: follows rel=next, resolving relative links; none on the last page', () => {
    assert.equal(
      nextPageUrl({ type: 'link_header' }, ctx({ headers: { link: '</items?page=2>; rel="next"' } }))?.href,
      'https://api.example/items?page=2',
    );
    assert.equal(
      nextPageUrl({ type: 'link_header' }, ctx({ headers: { link: '</items?page=1>; rel="prev"' } })),
      null,
    );
    assert.equal(nextPageUrl({ type: 'link_header' }, ctx({})), null);
  });

  it('next_url: reads the URL from the body', () => {
    const p = { type: 'next_url' as const, path: ['meta', 'next'] };
    assert.equal(
      nextPageUrl(p, ctx({ body: { meta: { next: 'https://api.example/items?page=2' } } }))?.href,
      'https://api.example/items?page=2',
    );
    assert.equal(nextPageUrl(p, ctx({ body: { meta: { next: null } } })), null);
  });

  it('body_cursor: puts the body cursor into the query; stops without has_more', () => {
    const p = {
      type: 'body_cursor' as const,
      cursor_path: ['next'],
      param: 'after',
      has_more_path: ['has_more'],
    };
    assert.equal(
      nextPageUrl(p, ctx({ body: { next: 'abc', has_more: true } }))?.search,
      '?per_page=2&after=abc',
    );
    assert.equal(nextPageUrl(p, ctx({ body: { next: 'abc', has_more: false } })), null);
    assert.equal(nextPageUrl({ ...p, has_more_path: undefined }, ctx({ body: { next: '' } })), null);
  });

  it('page_number: increments the page until a short or empty page', () => {
    const p = { type: 'page_number' as const, param: 'page', size_param: 'per_page' };
    assert.equal(nextPageUrl(p, ctx({}))?.search, '?per_page=2&page=2');
    assert.equal(
      nextPageUrl(p, ctx({ url: new URL('https://api.example/items?per_page=2&page=4') }))?.searchParams.get(
        'page',
      ),
      '5',
    );
    assert.equal(nextPageUrl(p, ctx({ records: [1] })), null);
    assert.equal(nextPageUrl({ type: 'page_number', param: 'p' }, ctx({ records: [] })), null);
    assert.equal(
      nextPageUrl({ type: 'page_number', param: 'p', start: 0 }, ctx({ records: [1] }))?.searchParams.get(
        'p',
      ),
      '1',
    );
  });

  it('offset: advances by the records received until a short page', () => {
    const p = { type: 'offset' as const, offset_param: 'offset', limit_param: 'per_page' };
    assert.equal(nextPageUrl(p, ctx({}))?.searchParams.get('offset'), '2');
    assert.equal(nextPageUrl(p, ctx({ records: [1] })), null);
  });

  it('sets the cursor param exactly as copying the URL and setting it through searchParams would', () => {
    const p = { type: 'body_cursor' as const, cursor_path: ['next'], param: 'page[after]' };
    const part = fc.string({
      unit: fc.constantFrom('a', 'Z', '0', '%', '2', '0', '?', '#', '&', '=', '+', ' ', '/', 'é', '[', ']'),
    });
    fc.assert(
      fc.property(
        fc.constantFrom('https://api.example', 'http://api.example:8080/v2'),
        part,
        fc.option(part, { nil: undefined }),
        fc.option(part, { nil: undefined }),
        fc.string({ minLength: 1 }),
        (origin, path, query, fragment, cursor) => {
          const text = `${origin}/${encodeURIComponent(path)}${query === undefined ? '' : `?${query}`}${fragment === undefined ? '' : `#${fragment}`}`;
          const current = new URL(text);
          const expected = new URL(current);
          expected.searchParams.set('page[after]', cursor);
          assert.equal(nextPageUrl(p, ctx({ url: current, body: { next: cursor } }))?.href, expected.href);
        },
      ),
      { numRuns: 500 },
    );
  });
});
