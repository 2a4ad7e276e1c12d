// The SDK's generated sources must be what the server's code generates now: a route, a schema, an error code
// or a connector's indexed field changed without regenerating fails here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generate, SDK_ROOT } from '../scripts/generate.ts';

/** The first line where two texts differ, to show in the failure. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const i = left.findIndex((line, n) => line !== right[n]);
  const at = i === -1 ? left.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(left[at])}, generated ${JSON.stringify(right[at])}`;
}

test('src/generated is what the API generates now (else: npm run sdk:generate)', async () => {
  const files = await generate();
  assert.match(
    files.get('src/generated/openapi.ts') ?? '',
    /"\/api\/v1\/integrations\/connectors\/\{id\}\/execute"/,
  );
  assert.match(files.get('src/generated/error-codes.ts') ?? '', /'CONNECTOR_NOT_FOUND'/);
  assert.match(files.get('src/generated/search-fields.ts') ?? '', /'user\.login': 'string'/);
  for (const [file, generated] of files) {
    const committed = fs.readFileSync(path.join(SDK_ROOT, file), 'utf8');
    if (committed !== generated) {
      assert.fail(
        `packages/sdk/${file} is not what the API generates (${firstDifference(committed, generated)}): ` +
          'run npm run sdk:generate',
      );
    }
  }
});
