// The check `npm run lint` runs (scripts/check-self-contained.mjs): a literal naming a path outside the checkout
// is refused, with its line; paths inside it, URL paths and system paths are not.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { check, outsidePaths, sourceFiles, stringLiterals } from '../../scripts/check-self-contained.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Written in pieces, so this file's own literals name none of these paths.
const WORK = '/wo' + 'rk';
const HOME = '/ho' + 'me';
const SHARED_REFERENCE = 'shared' + '/reference';
const CHECKOUT = '/srv/checkouts/ces';

const found = (text: string, file = 'test/connectors/linear/fake/graphql.ts') =>
  outsidePaths(text, file, CHECKOUT).map((f) => `${f.line}: ${f.literal}`);

describe('self-contained check', () => {
  it('refuses relative literals that climb out of the repository, and only those', () => {
    const file = 'test/connectors/linear/fake/graphql.ts'; // four directories deep
    const text = [
      "const a = new URL('../../../../../x/linear.graphql', import.meta.url);",
      "const b = new URL('../../../reference/providers/linear.graphql', import.meta.url);",
      "import { c } from '../../../../../../other/c.ts';",
      "import { d } from '../../../helpers/d.ts';",
      "const e = path.resolve(import.meta.dirname, '../../../../..');",
      "const f = path.join(import.meta.dirname, '..', '..', '..', '..', '..', 'x');",
      "const g = path.join(import.meta.dirname, '..', '..');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      'const h = `../../../../../${name}.json`;',
      "const i = '..';",
    ].join('\n');
    assert.deepEqual(found(text, file), [
      '1: ../../../../../x/linear.graphql',
      '3: ../../../../../../other/c.ts',
      '5: ../../../../..',
      '6: ../../../../../x',
      '8: ../../../../../',
    ]);
    // The same climb is inside the repository from a file deeper down.
    assert.deepEqual(found("new URL('../../../../x', import.meta.url);", 'test/a/b/c/d/e.ts'), []);
    assert.deepEqual(found("new URL('../../../../x', import.meta.url);", 'test/a/b/c.ts'), [
      '1: ../../../../x',
    ]);
  });

  it('refuses absolute paths under /work, /home or beside the checkout, and the reference folder', () => {
    const text = [
      `readFileSync('${WORK}/ces/x.json');`,
      `readFileSync("${HOME}/dev/x.json");`,
      `readFileSync('file://${WORK}/x.json');`,
      "readFileSync('/srv/checkouts/other/x.json');",
      `const p = '${SHARED_REFERENCE}/anchor-catalog.json';`,
      `const q = \`\${root}/../${SHARED_REFERENCE}/x\`;`,
    ].join('\n');
    assert.deepEqual(found(text), [
      `1: ${WORK}/ces/x.json`,
      `2: ${HOME}/dev/x.json`,
      `3: file://${WORK}/x.json`,
      '4: /srv/checkouts/other/x.json',
      `5: ${SHARED_REFERENCE}/anchor-catalog.json`,
      `6: /../${SHARED_REFERENCE}/x`,
    ]);
  });

  it('allows URL paths, system paths, comments, regular expressions and marked data', () => {
    const text = [
      "await h.inject({ url: '/api/v1/integrations/connectors' });",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      "fs.readFileSync(`/proc/${pid}/status`, 'utf8');",
      "const dir = '/tmp'; const browser = '/usr/bin/chromium'; const sink = '/dev/null'; const h = '/etc/hosts';",
      "const workspace = '/workspaces'; const homepage = '/homepage';",
      `// readFileSync('${WORK}/x.json') is what this file used to do; it's the reference's "${SHARED_REFERENCE}".`,
      `/* new URL('../../../../../../x', import.meta.url) */`,
      `const re = /'\\${WORK}\\/x'/; const n = a / b; const s = '../../x';`,
      "const traversal = ['../../../../../../etc/passwd']; // self-contained: not a path",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      "const insideTemplate = `a ${'/api'} b`;",
    ].join('\n');
    assert.deepEqual(found(text), []);
  });

  it('reads literals past comments with apostrophes, regular expressions and nested templates', () => {
    const text = [
      "// the reference's schema, Linear's SDL",
      "const re = /[/'\"]/g; const s = 'one';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      'const t = `a ${`b ${"two"} c`} d`;',
      "const u = x.replace(/\\//g, '');",
      `const v = '${WORK}/after';`,
    ].join('\n');
    assert.deepEqual(
      stringLiterals(text).map((l) => l.value),
      ['one', 'a ', 'b ', 'two', ' c', ' d', '', `${WORK}/after`],
    );
    assert.deepEqual(found(text), [`5: ${WORK}/after`]);
  });

  it('reads every source directory and finds nothing outside the repository', () => {
    const files = sourceFiles(ROOT);
    for (const f of ['src/main.ts', 'test/helpers/reference-spec.ts', 'scripts/check-layers.mjs'])
      assert.ok(files.includes(f), f);
    assert.ok(files.some((f) => f.startsWith('packages/sdk/src/')));
    assert.ok(files.some((f) => f.startsWith('bench/')));
    assert.ok(!files.some((f) => f.includes('node_modules/') || f.startsWith('dist/')));
    assert.deepEqual(check(ROOT), []);
  });
});
