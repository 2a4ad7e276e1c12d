import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { placeholders, render } from '../../../src/connectors/template.ts';

// What the templates meant before they were cut once and cached: one regex pass per call.
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

describe('templates', () => {
  it('names its placeholders in order and renders them encoded', () => {
    const path = '/repos/{owner}/{repo}/issues/{issue_number}';
    assert.deepEqual(placeholders(path), ['owner', 'repo', 'issue_number']);
    assert.equal(
      render(path, { owner: 'a b', repo: 'x/y', issue_number: '7' }, encodeURIComponent),
      '/repos/a%20b/x%2Fy/issues/7',
    );
    assert.deepEqual(placeholders('https://api.example.com'), []);
    assert.equal(render('{a}{a}{b}', { a: '1', b: '$&' }), '11$&');
  });

  it('throws when a value is missing, every time it is asked', () => {
    for (let i = 0; i < 2; i++) assert.throws(() => render('x/{id}', {}), /template value 'id' is missing/);
  });

  it('renders and names placeholders as one regex pass does, for any template, also when asked again', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('{', '}', '{}', '{1a}', '{a-b}', '{ a}', '$1', '$&'),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,5}$/).map((n) => `{${n}}`),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const template = pieces.join('');
        const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
        const values = Object.fromEntries(names.map((n, i) => [n, `<${i}$&>`]));
        const expected = template.replace(PLACEHOLDER, (_, n: string) => `[${values[n]}]`);
        for (let i = 0; i < 2; i++) {
          assert.deepEqual(placeholders(template), names);
          assert.equal(
            render(template, values, (v) => `[${v}]`),
            expected,
          );
        }
      }),
    );
  });
});
