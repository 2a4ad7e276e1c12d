// Whether ces's records type as the hosted connectors' SDK types them: each record is checked against the facts
// in test/reference/hosted-records/<slug>.json (npm run reference:facts -- --hosted-sdk DIR), one JSON Schema of
// a record per hosted entity-action and of a search record per entity. Names and types only: a member the hosted
// schema does not name, or a record it does not type, is no violation.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;
interface Facts {
  connector: string;
  entities: Record<string, Record<string, Schema>>;
  $defs?: Record<string, Schema>;
}

const DIR = path.resolve(import.meta.dirname, '../reference/hosted-records');

/**
 * ces entity names that differ from the hosted spec's, per slug (`ces name: hosted name`). ces follows the hosted
 * catalog's names, so this is empty unless a connector needs it.
 */
const HOSTED_ENTITY: Record<string, Record<string, string>> = {};

const facts = new Map<string, Facts | undefined>();
const validators = new Map<string, ValidateFunction | undefined>();
// allErrors: a record's every mistyped member is reported at once, not the first.
const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });

/** The facts of `slug`, or undefined when it has none. */
export function hostedRecordFacts(slug: string): Facts | undefined {
  if (!facts.has(slug)) {
    const file = path.join(DIR, `${slug}.json`);
    facts.set(slug, existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Facts) : undefined);
  }
  return facts.get(slug);
}

/** The hosted entity name of ces's `entity` of `slug`. */
export function hostedEntity(slug: string, entity: string): string {
  return HOSTED_ENTITY[slug]?.[entity] ?? entity;
}

function validator(slug: string, entity: string, action: string): ValidateFunction | undefined {
  const key = `${slug}\0${entity}\0${action}`;
  if (!validators.has(key)) {
    const known = hostedRecordFacts(slug);
    const schema = known?.entities[hostedEntity(slug, entity)]?.[action];
    validators.set(
      key,
      schema === undefined ? undefined : ajv.compile({ ...schema, $defs: known?.$defs ?? {} }),
    );
  }
  return validators.get(key);
}

/** `issues.list[3].user.id: must be string,null` for one ajv error of record `index`. */
function describeError(at: string, error: ErrorObject): string {
  const where = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join('');
  return `${at}${where}: ${error.message ?? error.keyword}`;
}

function violations(slug: string, entity: string, action: string, records: unknown[]): string[] {
  const validate = validator(slug, entity, action);
  if (validate === undefined) return [];
  const out: string[] = [];
  records.forEach((record, index) => {
    if (validate(record)) return;
    // anyOf reports each branch's failure and then its own; the branches say what is wrong.
    const errors = (validate.errors ?? []).filter((e, _, all) => e.keyword !== 'anyOf' || all.length === 1);
    for (const error of errors) out.push(describeError(`${entity}.${action}[${index}]`, error));
  });
  return [...new Set(out)];
}

/**
 * Where `records`, ces's answer to `entity`'s `action` (list, get, api_search, create, update), types a member
 * otherwise than the hosted schema does: `issues.list[3].id: must be string,null`; `[]` when none, or when the
 * facts type nothing for it.
 */
export function hostedRecordViolations(
  slug: string,
  entity: string,
  action: string,
  records: unknown[],
): string[] {
  if (action === 'search') throw new Error('search records: use hostedSearchViolations');
  return violations(slug, entity, action, records);
}

/** Where search `records` of `entity` type a member otherwise than the hosted SDK's search model does. */
export function hostedSearchViolations(slug: string, entity: string, records: unknown[]): string[] {
  return violations(slug, entity, 'search', records);
}
