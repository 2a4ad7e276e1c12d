// Reduces the reference descriptions the tests and fakes use to their facts, into test/reference/ (committed), so
// a clone runs its tests with nothing beside it. A developer runs it by hand when a description changes:
//
//   npm run reference:facts                       # read ../shared/reference, write test/reference/
//   npm run reference:facts -- --from DIR         # or CES_REFERENCE_DIR=DIR: read the descriptions from DIR
//   npm run reference:facts -- --check            # exit 1 when test/reference/ differs from what it would write
//   npm run reference:facts -- --hosted-sdk DIR   # also the hosted connectors' record types, from the hosted
//                                                 # service's SDK repository at DIR (a checkout or a bare git dir)
//
// Provider descriptions whose operation facts would pass ~400 KB keep only the operations listed in
// test/reference/providers/<slug>.operations.txt (one "METHOD /path" a line, as the facts key them).
//
// The only code in the repository allowed to read outside it (scripts/check-self-contained.mjs makes the
// exception). What is kept of each kind of description: scripts/reference-facts/*.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { reduceCatalog } from './reference-facts/catalog.ts';
import { reduceDiscovery } from './reference-facts/discovery.ts';
import { reduceSdl } from './reference-facts/graphql.ts';
import { reduceHostedRecords } from './reference-facts/hosted-records.ts';
import { isObject, type Json, reduceOpenApi } from './reference-facts/openapi.ts';
import { reduceOperations } from './reference-facts/operations.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'test/reference');
const DEFAULT_FROM = path.resolve(ROOT, '../shared/reference');

type Reduce =
  | { kind: 'openapi' | 'catalog'; reduce: (doc: unknown) => Json }
  | { kind: 'graphql' }
  | { kind: 'operations' }
  /** a Google API discovery document, reduced to the same operation facts (reference-facts/discovery.ts) */
  | { kind: 'discovery' };

/**
 * Each description a test or fake reads (path under the reference folder) and where its facts go (under
 * test/reference). A provider that publishes its API as several descriptions (one per API version, each with its
 * own paths) lists them all: their operations go into one facts file, as the fake serves them side by side.
 */
const FACTS: Array<{ from: string | string[]; to: string; as: Reduce }> = [
  {
    from: 'agent-api.openapi.json',
    to: 'agent-api.openapi.json',
    as: { kind: 'openapi', reduce: reduceOpenApi },
  },
  { from: 'anchor-catalog.json', to: 'anchor-catalog.json', as: { kind: 'catalog', reduce: reduceCatalog } },
  { from: 'providers/linear.graphql', to: 'providers/linear.graphql', as: { kind: 'graphql' } },
  // The descriptions the provider fakes follow, for their contract (test/connectors/kit/contract.ts).
  ...(
    [
      ['asana', 'providers/asana.yaml'],
      ['github', 'providers/github.json'],
      ['jira', 'providers/jira.json'],
      ['notion', 'providers/notion.json'],
      ['slack', 'providers/slack.json'],
      ['stripe', 'providers/stripe.yaml'],
      ['zendesk-support', 'zendesk-support.openapi.yaml'],
    ] as const
  ).map(([slug, from]) => ({ from, to: `providers/${slug}.json`, as: { kind: 'operations' } as const })),
  // Google's APIs publish discovery documents, not OpenAPI: the same facts, from their methods.
  ...(
    [
      ['gmail', 'providers/gmail.json'],
      ['google-drive', 'providers/google-drive.json'],
    ] as const
  ).map(([slug, from]) => ({
    from,
    to: `providers/${slug}.json`,
    as: { kind: 'discovery' } as const,
  })),
  // Confluence Cloud publishes REST API v2 (/wiki/api/v2) and the older v1 (/wiki/rest/api), which still holds
  // the audit log, groups and the current user.
  {
    from: ['providers/confluence-v2.json', 'providers/confluence-v1.json'],
    to: 'providers/confluence.json',
    as: { kind: 'operations' },
  },
];

/**
 * Where test/reference/providers/<slug>.operations.txt exists, only the operations it lists ("METHOD /path", one a
 * line, as the facts key them) are kept: the descriptions whose facts would pass ~400 KB keep the operations
 * their fake serves.
 */
function operationsKept(to: string): Set<string> | undefined {
  const list = path.join(OUT_DIR, to.replace(/\.json$/, '.operations.txt'));
  if (!existsSync(list)) return undefined;
  return new Set(
    readFileSync(list, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

/** The connectors whose hosted record types are kept: the slugs ces has a definition for. */
const DEFINITIONS_DIR = path.join(ROOT, 'src/connectors/definitions');
const HOSTED_RECORDS_DIR = 'hosted-records';

/** A file of the SDK repository at `dir`: read from its work tree, or from HEAD when `dir` is a bare git dir. */
function sdkFile(dir: string, file: string): string {
  const inTree = path.join(dir, file);
  if (existsSync(inTree)) return readFileSync(inTree, 'utf8');
  return execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${file}`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Per connector with a definition, the facts file (under test/reference) and its text. */
function hostedRecordFacts(sdk: string): Array<{ to: string; text: string }> {
  const slugs = readdirSync(DEFINITIONS_DIR)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => name.slice(0, -'.yaml'.length))
    .sort();
  return slugs.map((slug) => {
    const spec = parseYaml(sdkFile(sdk, `airbyte_agent_sdk/specs/${slug}/connector.yaml`), {
      maxAliasCount: -1,
    });
    const models = sdkFile(sdk, `airbyte_agent_sdk/connectors/${slug.replace(/-/g, '_')}/models.py`);
    const facts = reduceHostedRecords(slug, spec, models) as unknown as Json;
    return { to: `${HOSTED_RECORDS_DIR}/${slug}.json`, text: `${printJson(sortKeys(facts))}\n` };
  });
}

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

/**
 * The operations of several descriptions as one facts file. Their paths differ (each version has its own base
 * path); a schema name both use must mean the same shape, or the merge would silently retype one of them.
 */
function mergedOperations(
  dir: string,
  froms: readonly string[],
  kept: ((key: string) => boolean) | undefined,
): ReturnType<typeof reduceOperations> {
  const parts = froms.map((from) => reduceOperations(readDocument(path.join(dir, from)), from, kept));
  const merged: ReturnType<typeof reduceOperations> = {
    source: froms.join(' + '),
    ...(kept ? { subset: true as const } : {}),
    operations: {},
    schemas: {},
  };
  for (const reduced of parts) {
    // A schema name an earlier description gave another shape is kept under the description's name
    // (`confluence-v1:SpaceDescription`), and so are the references to it.
    const clashes = new Set(
      Object.entries(reduced.schemas)
        .filter(([name, shape]) => {
          const before = merged.schemas[name];
          return before !== undefined && JSON.stringify(before) !== JSON.stringify(shape);
        })
        .map(([name]) => name),
    );
    const prefix = `${path.basename(reduced.source).replace(/\.[^.]+$/, '')}:`;
    const part = renameRefs(reduced, clashes, prefix) as typeof reduced;
    for (const [key, op] of Object.entries(part.operations)) {
      if (key in merged.operations) throw new Error(`${part.source}: ${key} is in two descriptions`);
      merged.operations[key] = op;
    }
    for (const [name, shape] of Object.entries(part.schemas))
      merged.schemas[clashes.has(name) ? `${prefix}${name}` : name] = shape;
  }
  return merged;
}

/** `value` with every `{"$ref": name}` of a name in `names` pointing at `prefix + name`. */
function renameRefs(value: unknown, names: ReadonlySet<string>, prefix: string): unknown {
  if (names.size === 0) return value;
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, names, prefix));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === '$ref' && typeof member === 'string' && names.has(member)
        ? `${prefix}${member}`
        : renameRefs(member, names, prefix),
    ]),
  );
}

/** What the script writes for one description (or several, merged). */
function factsOf(dir: string, files: readonly string[], as: Reduce, to: string): string {
  const [first] = files;
  if (first === undefined) throw new Error(`${to}: no description`);
  const file = path.join(dir, first);
  if (as.kind === 'graphql') return reduceSdl(readText(file));
  if (as.kind === 'operations' || as.kind === 'discovery') {
    const kept = operationsKept(to);
    const keep = kept && ((key: string) => kept.has(key));
    const reduce = as.kind === 'operations' ? reduceOperations : reduceDiscovery;
    const facts =
      files.length > 1 ? mergedOperations(dir, files, keep) : reduce(readDocument(file), first, keep);
    // A listed operation the description lacks is a typo, or an operation the provider dropped: either way the
    // contract would then fail the fake's route with a misleading "no path matches".
    const missing = [...(kept ?? [])].filter((key) => !(key in facts.operations));
    if (missing.length > 0)
      throw new Error(
        `${to.replace(/\.json$/, '.operations.txt')} lists what ${files.join(' + ')} lacks: ${missing.join(', ')}`,
      );
    return `${printJson(sortKeys(facts as unknown as Json))}\n`;
  }
  return `${printJson(sortKeys(as.reduce(readDocument(file))))}\n`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      'hosted-sdk': { type: 'string' },
      check: { type: 'boolean', default: false },
    },
  });
  const from = path.resolve(values.from ?? process.env.CES_REFERENCE_DIR ?? DEFAULT_FROM);
  const outputs: Array<{ to: string; text: string; sizes: string }> = [];
  for (const fact of FACTS) {
    const files = typeof fact.from === 'string' ? [fact.from] : fact.from;
    const sources = files.map((file) => path.join(from, file));
    const missing = sources.find((source) => !existsSync(source));
    if (missing !== undefined) {
      console.error(`${missing} is missing (pass --from DIR or set CES_REFERENCE_DIR)`);
      process.exit(1);
    }
    const text = factsOf(from, files, fact.as, fact.to);
    const size = sources.reduce((n, source) => n + Buffer.byteLength(readText(source)), 0);
    outputs.push({ to: fact.to, text, sizes: `${size} -> ${Buffer.byteLength(text)} bytes` });
  }
  const sdk = values['hosted-sdk'];
  if (sdk !== undefined)
    for (const fact of hostedRecordFacts(path.resolve(sdk)))
      outputs.push({ ...fact, sizes: `${Buffer.byteLength(fact.text)} bytes` });
  const stale: string[] = [];
  for (const { to, text, sizes } of outputs) {
    const target = path.join(OUT_DIR, to);
    const before = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
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
  const sources = sdk === undefined ? from : `${from} and ${sdk}`;
  if (stale.length > 0) {
    console.error(`differs from ${sources} (run npm run reference:facts): ${stale.join(', ')}`);
    process.exit(1);
  }
  if (values.check) console.log(`test/reference/ is what ${sources} reduces to`);
}

main();
