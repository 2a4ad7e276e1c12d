// Reduces the reference descriptions the tests and fakes use to their facts, into test/reference/ (committed), so
// a clone runs its tests with nothing beside it. A developer runs it by hand when a description changes:
//
//   npm run reference:facts                       # read ../shared/reference, write test/reference/
//   npm run reference:facts -- --from DIR         # or CES_REFERENCE_DIR=DIR: read the descriptions from DIR
//   npm run reference:facts -- --check            # exit 1 when test/reference/ differs from what it would write
//
// The only code in the repository allowed to read outside it (scripts/check-self-contained.mjs makes the
// exception). What is kept of each kind of description: scripts/reference-facts/*.ts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { reduceCatalog } from './reference-facts/catalog.ts';
import { reduceSdl } from './reference-facts/graphql.ts';
import { isObject, type Json, reduceOpenApi } from './reference-facts/openapi.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'test/reference');
const DEFAULT_FROM = path.resolve(ROOT, '../shared/reference');

type Reduce = { kind: 'openapi' | 'catalog'; reduce: (doc: unknown) => Json } | { kind: 'graphql' };

/** Each description a test or fake reads (path under the reference folder) and where its facts go (under test/reference). */
const FACTS: Array<{ from: string; to: string; as: Reduce }> = [
  {
    from: 'agent-api.openapi.json',
    to: 'agent-api.openapi.json',
    as: { kind: 'openapi', reduce: reduceOpenApi },
  },
  { from: 'anchor-catalog.json', to: 'anchor-catalog.json', as: { kind: 'catalog', reduce: reduceCatalog } },
  { from: 'providers/linear.graphql', to: 'providers/linear.graphql', as: { kind: 'graphql' } },
];

/** The bytes of `file`, gunzipped when it ends in `.gz`, as text. */
function readText(file: string): string {
  const bytes = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** A JSON or YAML document (by its extension, under any `.gz`). */
function readDocument(file: string): unknown {
  const name = file.replace(/\.gz$/, '');
  const text = readText(file);
  if (name.endsWith('.json')) return JSON.parse(text);
  if (name.endsWith('.yaml') || name.endsWith('.yml')) return parseYaml(text, { maxAliasCount: -1 });
  throw new Error(`${file}: neither .json nor .yaml`);
}

/** `value` with every object's keys in code-unit order, so the output depends on the facts alone. */
function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as Json);
  return out;
}

const LINE = 100;

/**
 * `value` as JSON, one member a line except that an array or object whose JSON fits on its line stays on it: a
 * fraction of the size of JSON.stringify's indented form (the catalog's lists of names), and still diffs by member.
 */
function printJson(value: Json, indent = ''): string {
  const flat = JSON.stringify(value);
  if (typeof value !== 'object' || value === null || indent.length + flat.length <= LINE) return flat;
  const inner = `${indent}  `;
  const members = Array.isArray(value)
    ? value.map((item) => inner + printJson(item, inner))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${printJson(v, inner)}`);
  if (members.length === 0) return flat;
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${members.join(',\n')}\n${indent}${close}`;
}

/** What the script writes for one description. */
function factsOf(file: string, as: Reduce): string {
  if (as.kind === 'graphql') return reduceSdl(readText(file));
  return `${printJson(sortKeys(as.reduce(readDocument(file))))}\n`;
}

function main(): void {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, check: { type: 'boolean', default: false } },
  });
  const from = path.resolve(values.from ?? process.env.CES_REFERENCE_DIR ?? DEFAULT_FROM);
  const stale: string[] = [];
  for (const fact of FACTS) {
    const source = path.join(from, fact.from);
    if (!existsSync(source)) {
      console.error(`${source} is missing (pass --from DIR or set CES_REFERENCE_DIR)`);
      process.exit(1);
    }
    const text = factsOf(source, fact.as);
    const target = path.join(OUT_DIR, fact.to);
    const before = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    const sizes = `${Buffer.byteLength(readText(source))} -> ${Buffer.byteLength(text)} bytes`;
    if (values.check) {
      if (before !== text) stale.push(path.relative(ROOT, target));
      continue;
    }
    if (before !== text) {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    console.log(`${path.relative(ROOT, target)}: ${before === text ? 'unchanged' : 'written'} (${sizes})`);
  }
  if (stale.length > 0) {
    console.error(`differs from ${from} (run npm run reference:facts): ${stale.join(', ')}`);
    process.exit(1);
  }
  if (values.check) console.log(`test/reference/ is what ${from} reduces to`);
}

main();
