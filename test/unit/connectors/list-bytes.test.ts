// When the runtime may leave a list's records unparsed: only where nothing it reads in a success lies inside it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unparsedListPath } from '../../../src/connectors/runtime/list-bytes.ts';
import type { ActionDefinition, ConnectorDefinition } from '../../../src/connectors/schema.ts';
import { acme } from './helpers.ts';

describe('unparsedListPath', () => {
  const def = acme();
  const things = def.entities.find((e) => e.name === 'things')!.actions.list!;
  /** The things list with changes (a new object each time: decisions are kept per action). */
  const list = (change: Partial<ActionDefinition>): ActionDefinition => ({ ...things, ...change });
  const withRules = (rules: NonNullable<ConnectorDefinition['errors']>['rules']): ConnectorDefinition => ({
    ...def,
    errors: { ...def.errors, rules },
  });

  it('is the record selector when paging, meta and success rules read beside the list', () => {
    // acme's success rule reads [ok]; its meta [total]; link-header paging reads no body.
    assert.deepEqual(unparsedListPath(def, list({}), false), ['things']);
    assert.deepEqual(
      unparsedListPath(def, list({ pagination: { type: 'next_url', path: ['links', 'next'] } }), false),
      ['things'],
    );
    // A whole-body list: a rule's key ([ok]) reads nothing on an array, unparsed or not; an index does.
    const whole = list({ record_selector: undefined, meta: undefined });
    assert.deepEqual(unparsedListPath(def, whole, false), []);
    const index = [
      { when: { status: [200], body: { path: ['0', 'ok'], equals: false } }, error: 'error' as const },
    ];
    assert.equal(unparsedListPath(withRules(index), list({ record_selector: undefined }), false), undefined);
  });

  it('is undefined when paging counts the records or reads the last one', () => {
    for (const pagination of [
      { type: 'keyset', param: 'after' },
      { type: 'offset', offset_param: 'o', limit_param: 'l' },
      { type: 'page_number', param: 'page' },
      { type: 'first_of', styles: [{ type: 'link_header' }, { type: 'keyset', param: 'after' }] },
    ] as ActionDefinition['pagination'][]) {
      assert.equal(unparsedListPath(def, list({ pagination }), false), undefined, JSON.stringify(pagination));
    }
  });

  it('is undefined when a path the runtime reads leads into the list or contains it', () => {
    assert.equal(unparsedListPath(def, list({ meta: { first: ['things', '0', 'id'] } }), false), undefined);
    assert.equal(
      unparsedListPath(
        def,
        list({ pagination: { type: 'body_cursor', cursor_path: [], param: 'c' } }),
        false,
      ),
      undefined,
    );
    // A rule that may match a success and reads the list; one for errors only does not count.
    const into = [
      { when: { status: [200], body: { path: ['things', '0', 'id'], equals: 1 } }, error: 'error' as const },
    ];
    assert.equal(unparsedListPath(withRules(into), list({}), false), undefined);
    const onError = [
      { when: { status: [400], body: { path: ['things', '0', 'id'], equals: 1 } }, error: 'error' as const },
    ];
    assert.deepEqual(unparsedListPath(withRules(onError), list({}), false), ['things']);
    // GraphQL's errors member.
    assert.equal(unparsedListPath(def, list({ record_selector: ['errors'] }), true), undefined);
    assert.deepEqual(unparsedListPath(def, list({ record_selector: ['data', 'nodes'] }), true), [
      'data',
      'nodes',
    ]);
  });
});
