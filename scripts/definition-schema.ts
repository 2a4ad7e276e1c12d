// Writes docs/connector-definition.schema.json, the JSON Schema of connector definition files, from the TypeBox
// schema the loader checks them with (src/connectors/schema.ts), so an editor flags what start-up would refuse
// while the file is typed. `--check` writes nothing and exits 1 when the committed file is stale.
//   npm run definition-schema [-- --check]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConnectorDefinitionSchema } from '../src/connectors/schema.ts';

export const DEFINITION_SCHEMA_FILE = fileURLToPath(
  new URL('../docs/connector-definition.schema.json', import.meta.url),
);

/**
 * The draft the file declares. TypeBox targets 2020-12, but yaml-language-server (the editors' YAML checker)
 * validates with draft-07 and flags a 2020-12 `$schema` as not fully supported. The keywords TypeBox emits
 * for this schema mean the same in both drafts; the test checks that, and validates with both.
 */
export const DECLARED_DRAFT = 'http://json-schema.org/draft-07/schema#';

/**
 * The schema as JSON: TypeBox values are JSON Schema, and its own markers (`~kind`, `~optional`) are
 * non-enumerable, so serialising leaves exactly the keywords the loader's validator reads.
 */
export function definitionJsonSchema(): Record<string, unknown> {
  return {
    $schema: DECLARED_DRAFT,
    $id: 'urn:ces:connector-definition',
    title: 'ces connector definition',
    description:
      'One connector type of ces (src/connectors/definitions/<slug>.yaml). Generated from src/connectors/schema.ts by `npm run definition-schema`; docs/connector-definitions.md documents every key. Start-up also runs consistency checks a schema cannot express (placeholders, param placement, Context Store fields).',
    ...(JSON.parse(JSON.stringify(ConnectorDefinitionSchema)) as Record<string, unknown>),
  };
}

export function renderDefinitionJsonSchema(): string {
  return `${JSON.stringify(definitionJsonSchema(), null, 2)}\n`;
}

function main(args: string[]): number {
  const text = renderDefinitionJsonSchema();
  if (args.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(DEFINITION_SCHEMA_FILE, 'utf8');
    } catch {
      // A missing file is stale too.
    }
    if (committed === text) return 0;
    console.error(`${DEFINITION_SCHEMA_FILE} is out of date: run npm run definition-schema`);
    return 1;
  }
  writeFileSync(DEFINITION_SCHEMA_FILE, text);
  console.log(`wrote ${DEFINITION_SCHEMA_FILE}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
