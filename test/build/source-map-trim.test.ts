// scripts/source-map-trim.mjs, which the build runs on its maps: checked against Node's own source map reader on
// bundles esbuild makes here, position by position. A position of ces's own code maps exactly as before; one of a
// dependency (or of nothing) maps to no source, never to a neighbour's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import { type SourceMapV3, trimSourceMap } from '../../scripts/source-map-trim.mjs';

const DEP = `
export function shout(text) {
  const upper = String(text).toUpperCase();
  return upper + '!';
}
export class Counter {
  constructor() { this.n = 0; }
  add(k) { this.n += k; return this.n; }
}
`;
const OTHER = `export const twice = (f) => (x) => f(f(x));\n`;
const APP = `
import { shout, Counter } from 'dep';
import { twice } from 'other';
export function greet(name) {
  const c = new Counter();
  c.add(name.length);
  return twice(shout)(name) + c.n;
}
export function fail() {
  throw new Error('from app');
}
console.log(greet('ces'));
`;

const reader = (map: SourceMapV3) => new SourceMap(map as unknown as SourceMapPayload);
const sourceAt = (map: SourceMap, line: number, column: number) =>
  (map.findEntry(line, column) as { originalSource?: string }).originalSource;

describe('source map trimming', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-map-trim-'));
    for (const [file, text] of [
      ['node_modules/dep/index.js', DEP],
      ['node_modules/dep/package.json', '{"name":"dep","type":"module","main":"index.js"}'],
      ['node_modules/other/index.js', OTHER],
      ['node_modules/other/package.json', '{"name":"other","type":"module","main":"index.js"}'],
      ['src/app.js', APP],
    ] as const) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const minify of [false, true]) {
    it(`keeps every position of the app's code and drops the dependencies' (${minify ? 'minified' : 'readable'} bundle)`, async () => {
      const built = await esbuild.build({
        entryPoints: [path.join(dir, 'src/app.js')],
        outdir: path.join(dir, 'out'),
        bundle: true,
        format: 'esm',
        platform: 'node',
        sourcemap: true,
        sourcesContent: false,
        minifyWhitespace: minify,
        minifySyntax: minify,
        write: false,
      });
      const code = built.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
      const raw = JSON.parse(built.outputFiles.find((f) => f.path.endsWith('.map'))!.text) as SourceMapV3;
      assert.ok(raw.sources.some((s) => s.includes('node_modules/dep/')));
      const trimmed = trimSourceMap(raw);
      assert.ok(trimmed.mappings.length < raw.mappings.length);
      const before = reader(raw);
      const after = reader(trimmed);
      let own = 0;
      let dependency = 0;
      const lines = code.split('\n');
      for (let line = 0; line <= lines.length; line++) {
        for (let column = 0; column <= (lines[line]?.length ?? 0); column++) {
          const was = before.findEntry(line, column) as { originalSource?: string };
          const is = after.findEntry(line, column) as { originalSource?: string };
          if (was.originalSource?.endsWith('src/app.js')) {
            own++;
            assert.deepEqual(is, was, `${line}:${column}`);
          } else {
            if (was.originalSource) dependency++;
            assert.equal(is.originalSource, undefined, `${line}:${column} maps to ${is.originalSource}`);
          }
        }
      }
      assert.ok(own > 50 && dependency > 50, `${own} own, ${dependency} dependency positions`);
    });
  }

  it('leaves a map without dependencies as it is, and honours another rule for what to drop', () => {
    const map = { version: 3, sources: ['../src/a.ts'], names: [], mappings: 'AAAA,IAAI;AACJ' };
    assert.equal(trimSourceMap(map), map);
    const dropped = reader(trimSourceMap(map, (s) => s.endsWith('a.ts')));
    // The last line included: Node reads a lone one-field segment at the very end as a full one.
    for (const [line, column] of [
      [0, 0],
      [0, 4],
      [1, 0],
      [1, 3],
    ] as const)
      assert.equal(sourceAt(dropped, line, column), undefined, `${line}:${column}`);
    assert.throws(() => trimSourceMap({ ...map, mappings: 'AA!A' }, () => true), /not a base64 digit/);
  });
});
