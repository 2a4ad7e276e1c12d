// The JSON Schema editors check definition files with (docs/connector-definition.schema.json) is the loader's
// TypeBox schema, committed: it must be regenerated whenever src/connectors/schema.ts changes, every shipped
// definition must pass it, and it must refuse what the loader's schema refuses. The TypeScript types of the
// format are `Type.Static` of the same TypeBox values; the one hand-written list (ACTION_NAMES) is checked here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Compile } from 'typebox/compile';
import { parse as parseYaml } from 'yaml';
import {
  DECLARED_DRAFT,
  DEFINITION_SCHEMA_FILE,
  definitionJsonSchema,
  renderDefinitionJsonSchema,
} from '../../../scripts/definition-schema.ts';
import {
  ACTION_NAMES,
  type ActionName,
  COLLECTION_ACTIONS,
  type ConnectorDefinition,
  ConnectorDefinitionSchema,
  type EntityDefinition,
  ERROR_KINDS,
  type ErrorKind,
  type ErrorRule,
} from '../../../src/connectors/schema.ts';

const DEFINITIONS_DIR = new URL('../../../src/connectors/definitions/', import.meta.url);

const committedText = readFileSync(DEFINITION_SCHEMA_FILE, 'utf8');
const committed = JSON.parse(committedText) as Record<string, unknown>;

function shipped(): Array<{ file: string; doc: Record<string, unknown> }> {
  return readdirSync(DEFINITIONS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => ({
      file,
      doc: parseYaml(readFileSync(new URL(file, DEFINITIONS_DIR), 'utf8')) as Record<string, unknown>,
    }));
}

// Strict mode: a keyword Ajv does not know (a TypeBox marker leaking into the file) fails compilation.
const draft07 = new Ajv({ allErrors: true, strict: true });
addFormats.default(draft07);
const draft2020 = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(draft2020);
const { $schema: _declared, ...undeclared } = committed;
const validate07 = draft07.compile(committed);
const validate2020 = draft2020.compile(undeclared);
const loader = Compile(ConnectorDefinitionSchema);

/**
 * Keywords that mean the same in draft-07 (which the file declares, for yaml-language-server) and 2020-12
 * (which TypeBox targets). `items` only in its one-schema form: its array form is `prefixItems` in 2020-12.
 */
const SHARED_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'items',
  'anyOf',
  'allOf',
  'oneOf',
  'not',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'title',
  'description',
  'default',
]);

function keywordProblems(schema: unknown, at: string, out: string[]): string[] {
  if (typeof schema === 'boolean') return out;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    out.push(`${at}: not a schema`);
    return out;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (!SHARED_KEYWORDS.has(key)) out.push(`${at}/${key}: not a keyword shared by draft-07 and 2020-12`);
    if (key === 'properties' || key === 'patternProperties') {
      for (const [name, sub] of Object.entries(value as object))
        keywordProblems(sub, `${at}/${key}/${name}`, out);
    } else if (key === 'items') {
      if (Array.isArray(value)) out.push(`${at}/items: the array form differs between the drafts`);
      else keywordProblems(value, `${at}/items`, out);
    } else if (key === 'additionalProperties' || key === 'not') {
      keywordProblems(value, `${at}/${key}`, out);
    } else if (key === 'anyOf' || key === 'allOf' || key === 'oneOf') {
      (value as unknown[]).forEach((sub, i) => {
        keywordProblems(sub, `${at}/${key}/${i}`, out);
      });
    }
  }
  return out;
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * The members of a type that are `never`, as paths. `Type.Static` of a schema TypeBox can't read statically (a
 * union built from a plain array, not a tuple) is `never`: the schema accepts values the types then can't hold,
 * and every use of the member type-checks against anything.
 */
type NeverPaths<T, P extends string = ''> = [T] extends [never]
  ? P
  : T extends readonly (infer U)[]
    ? NeverPaths<U, `${P}[]`>
    : T extends object
      ? { [K in keyof T & string]-?: NeverPaths<Exclude<T[K], undefined>, `${P}.${K}`> }[keyof T & string]
      : never;

describe('docs/connector-definition.schema.json', () => {
  it('is the TypeBox schema of the format as generated now (else run npm run definition-schema)', () => {
    assert.ok(
      committedText === renderDefinitionJsonSchema(),
      'docs/connector-definition.schema.json differs from src/connectors/schema.ts: run npm run definition-schema',
    );
    const { $schema, $id, title, description, ...rest } = committed;
    assert.equal($schema, DECLARED_DRAFT);
    assert.equal(typeof $id, 'string');
    assert.equal(typeof title, 'string');
    assert.equal(typeof description, 'string');
    assert.deepEqual(rest, JSON.parse(JSON.stringify(ConnectorDefinitionSchema)));
    assert.deepEqual(definitionJsonSchema(), committed);
  });

  it('uses only keywords that mean the same in draft-07 and 2020-12', () => {
    const { $schema: _s, $id: _i, ...body } = committed;
    assert.deepEqual(keywordProblems(body, '', []), []);
  });

  it('passes every shipped definition, with draft-07 and 2020-12 validators alike', () => {
    const files = shipped();
    assert.ok(files.length >= 3, `only ${files.length} definitions found`);
    for (const { file, doc } of files) {
      assert.ok(validate07(doc), `${file}: ${draft07.errorsText(validate07.errors)}`);
      assert.ok(validate2020(doc), `${file}: ${draft2020.errorsText(validate2020.errors)}`);
    }
  });

  it("refuses what the loader's schema refuses, and only that", () => {
    const mutations: Array<[string, (d: Record<string, unknown>) => void, boolean]> = [
      ['unchanged', () => {}, true],
      ['unknown top-level key', (d) => Object.assign(d, { extra: 1 }), false],
      ['id not a UUID', (d) => Object.assign(d, { id: 'not-a-uuid' }), false],
      ['slug with capitals', (d) => Object.assign(d, { slug: 'GitHub' }), false],
      ['no entities', (d) => Object.assign(d, { entities: [] }), false],
      ['no actions', (d) => Object.assign(entity(d), { actions: {} }), false],
      ['unknown action', (d) => Object.assign(entity(d).actions, { fetch: firstAction(d) }), false],
      ['unknown param type', (d) => setParamType(d, 'int'), false],
      ['a declared param type', (d) => setParamType(d, 'number'), true],
      [
        'unknown paging style',
        (d) => Object.assign(firstAction(d), { pagination: { type: 'bogus' } }),
        false,
      ],
      [
        'first_of with one style',
        (d) =>
          Object.assign(firstAction(d), { pagination: { type: 'first_of', styles: [{ type: 'none' }] } }),
        false,
      ],
      [
        'unknown error kind',
        (d) => Object.assign(d, { errors: { rules: [{ when: { status: [403] }, error: 'x' }] } }),
        false,
      ],
      [
        'a declared error kind',
        (d) => Object.assign(d, { errors: { rules: [{ when: { status: [403] }, error: 'forbidden' }] } }),
        true,
      ],
    ];
    for (const { file, doc } of shipped()) {
      for (const [what, mutate, valid] of mutations) {
        const copy = structuredClone(doc);
        mutate(copy);
        const where = `${file}, ${what}`;
        assert.equal(loader.Check(copy), valid, `the loader's schema: ${where}`);
        assert.equal(validate07(copy), valid, `draft-07: ${where}`);
        assert.equal(validate2020(copy), valid, `2020-12: ${where}`);
      }
    }
  });

  it('keeps the hand-written lists of the format in step with the schema', () => {
    const entities = (
      committed.properties as Record<string, { items: { properties: Record<string, unknown> } }>
    ).entities;
    const actions = entities?.items.properties.actions as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(actions.properties).sort(), [...ACTION_NAMES].sort());
    for (const name of COLLECTION_ACTIONS) assert.ok(ACTION_NAMES.includes(name), name);
    // The same facts for the compiler: these lines stop type-checking when the lists and the schema part.
    const actionsInStep: Equal<keyof EntityDefinition['actions'], ActionName> = true;
    const kindsInStep: Equal<ErrorRule['error'], ErrorKind> = true;
    const noNeverMember: Equal<NeverPaths<ConnectorDefinition>, never> = true;
    assert.ok(actionsInStep && kindsInStep && noNeverMember);
    const rules = (committed.properties as Record<string, { properties: Record<string, unknown> }>).errors
      ?.properties.rules as { items: { properties: { error: { anyOf: Array<{ const: string }> } } } };
    assert.deepEqual(
      rules.items.properties.error.anyOf.map((k) => k.const),
      [...ERROR_KINDS],
    );
  });
});

function entity(doc: Record<string, unknown>): { actions: Record<string, unknown> } {
  return (doc.entities as Array<{ actions: Record<string, unknown> }>)[0]!;
}

function firstAction(doc: Record<string, unknown>): Record<string, unknown> {
  return Object.values(entity(doc).actions)[0] as Record<string, unknown>;
}

/** Sets the type of the first declared param of any action (every shipped definition has one). */
function setParamType(doc: Record<string, unknown>, type: string): void {
  for (const e of doc.entities as Array<{
    actions: Record<string, { params?: Record<string, { type: string }> }>;
  }>) {
    for (const action of Object.values(e.actions)) {
      const param = Object.values(action.params ?? {})[0];
      if (param) {
        param.type = type;
        return;
      }
    }
  }
  throw new Error('no declared param to change');
}
