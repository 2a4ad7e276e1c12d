// How many connector definitions use each option of the definition format, the table behind the rule "an option
// when two providers or more need it, else a hook" (docs/connector-definitions.md, "Options and hooks"). Walks each
// src/connectors/definitions/*.yaml along the published JSON Schema, so an option the schema declares and no
// definition uses shows as 0; the places an action, request, param or paging style recurs are counted as one.
//   node --import tsx scripts/definition-options.ts [--single]     (--single: only options one definition uses)
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

interface Schema {
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  const?: unknown;
  type?: string;
}
type Json = unknown;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Free-form JSON (a JSON Schema, body templates, GraphQL variables) whose keys are not options. */
const OPAQUE = [/^replication_config$/, /request\.body$/, /graphql\.variables$/];

const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const flat = (s: Schema): Schema[] => (s.anyOf ? s.anyOf.flatMap(flat) : [s]);
const recordOf = (s: Schema): Schema | undefined =>
  typeof s.additionalProperties === 'object'
    ? s.additionalProperties
    : s.patternProperties
      ? Object.values(s.patternProperties)[0]
      : undefined;

/** Every option the schema declares (a `type` tag as `path.type=value`). */
function declared(s: Schema, path: string, out: Set<string>): void {
  for (const b of s.anyOf ?? []) declared(b, path, out);
  if (OPAQUE.some((r) => r.test(path))) return;
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    if (k === 'type' && v.const !== undefined) {
      out.add(`${path}.type=${String(v.const)}`);
      continue;
    }
    const p = path ? `${path}.${k}` : k;
    out.add(p);
    declared(v, p, out);
  }
  if (s.items) declared(s.items, `${path}[]`, out);
  const rec = recordOf(s);
  if (rec) declared(rec, `${path}.*`, out);
}

/** Calls `note` for each option `v` uses, following the branch of a union that `v` takes. */
function walk(s: Schema, v: Json, path: string, note: (option: string) => void): void {
  if (v === null || v === undefined) return;
  if (s.anyOf) {
    let branches = s.anyOf.flatMap(flat);
    if (isObject(v)) {
      const tagged = branches.filter((b) => b.properties?.type?.const !== undefined);
      branches = tagged.length
        ? tagged.filter((b) => b.properties?.type?.const === v.type)
        : branches.filter((b) => b.type === 'object');
    } else branches = Array.isArray(v) ? branches.filter((b) => b.type === 'array') : [];
    if (branches[0]) walk(branches[0], v, path, note);
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) if (s.items) walk(s.items, x, `${path}[]`, note);
    return;
  }
  if (!isObject(v)) return;
  if (s.properties && Object.keys(s.properties).length > 0) {
    for (const [k, x] of Object.entries(v)) {
      const sub = s.properties[k];
      if (!sub) continue;
      if (k === 'type' && sub.const !== undefined) {
        note(`${path}.type=${String(x)}`);
        continue;
      }
      const p = path ? `${path}.${k}` : k;
      note(p);
      if (!OPAQUE.some((r) => r.test(p))) walk(sub, x, p, note);
    }
    return;
  }
  const rec = recordOf(s);
  if (rec) for (const x of Object.values(v)) walk(rec, x, `${path}.*`, note);
}

/** One name for each place a schema part recurs (every action's request is `request.`, every param `param.`). */
function normalise(p: string): string {
  return p
    .replace(/^entities\[\]\.actions\.[a-z_]+/, 'action')
    .replace(/^action\.variants\[\]\.request\./, 'request.')
    .replace(/^(action\.request|check)\./, 'request.')
    .replace(/^action\.params\.\*\./, 'param.')
    .replace(/^action\.pagination\.(styles\[\]\.)?/, 'pagination.')
    .replace(/^entities\[\]\.context_store\./, 'context_store.')
    .replace(/^entities\[\]\./, 'entity.')
    .replace(/^credential_options\[\]\.auth\[\]\./, 'credential_options[].auth.');
}

export function optionUses(root = ROOT): Map<string, Map<string, number>> {
  const schema = JSON.parse(readFileSync(`${root}/docs/connector-definition.schema.json`, 'utf8')) as Schema;
  const table = new Map<string, Map<string, number>>();
  const all = new Set<string>();
  declared(schema, '', all);
  for (const option of all) table.set(normalise(option), new Map());
  const dir = `${root}/src/connectors/definitions`;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const doc = parse(readFileSync(`${dir}/${file}`, 'utf8')) as { slug: string };
    walk(schema, doc, '', (option) => {
      const name = normalise(option);
      const bySlug = table.get(name) ?? new Map<string, number>();
      bySlug.set(doc.slug, (bySlug.get(doc.slug) ?? 0) + 1);
      table.set(name, bySlug);
    });
  }
  return table;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const single = process.argv.includes('--single');
  const rows = [...optionUses()].sort((a, b) => a[1].size - b[1].size || a[0].localeCompare(b[0]));
  console.log('| option | definitions | uses | which (up to 3) |\n|---|---|---|---|');
  for (const [option, bySlug] of rows) {
    if (single && bySlug.size !== 1) continue;
    const uses = [...bySlug.values()].reduce((a, b) => a + b, 0);
    const which = bySlug.size <= 3 ? [...bySlug.keys()].sort().join(', ') : '';
    console.log(`| \`${option}\` | ${bySlug.size} | ${uses} | ${which} |`);
  }
}
