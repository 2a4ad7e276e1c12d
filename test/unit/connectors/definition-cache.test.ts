// The build parses and checks the shipped definitions once (src/connectors/definition-cache.ts); a process
// started from the build takes a definition from that cache only when the file's text is exactly what was checked.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DEFINITION_CACHE_FILE,
  definitionKey,
  readDefinitionCache,
  sourcesKey,
  writeDefinitionCache,
} from '../../../src/connectors/definition-cache.ts';
import { parseDefinition } from '../../../src/connectors/load.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';

const DIR = DefinitionRegistry.DEFAULT_DIR;
const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));
const tmp = mkdtempSync(join(tmpdir(), 'ces-defcache-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('definition cache', () => {
  it('holds, for each shipped file, exactly what parsing and checking it gives', () => {
    const file = join(tmp, 'cache.json');
    assert.equal(writeDefinitionCache(DIR, file), files.length);
    const cache = readDefinitionCache(file, 'build');
    for (const name of files) {
      const text = readFileSync(join(DIR, name), 'utf8');
      assert.deepEqual(cache.get(definitionKey(text)), parseDefinition(text, name), name);
    }
  });

  it("the build's cache (npm test builds first) covers the definitions as they are now", () => {
    const cache = readDefinitionCache(DEFINITION_CACHE_FILE);
    for (const name of files)
      assert.ok(cache.has(definitionKey(readFileSync(join(DIR, name), 'utf8'))), name);
  });

  it('a file whose text is in the cache is not parsed; an edited one is', () => {
    const text = readFileSync(join(DIR, 'github.yaml'), 'utf8');
    const parsed = parseDefinition(text, 'github.yaml');
    const doctored = { ...parsed, description: 'from the cache' } as ConnectorDefinition;
    const cache = new Map([[definitionKey(text), doctored]]);
    const own = mkdtempSync(join(tmp, 'own-'));
    writeFileSync(join(own, 'github.yaml'), text);
    assert.equal(DefinitionRegistry.loadFromDir(own, cache).bySlug('github')?.description, 'from the cache');
    writeFileSync(join(own, 'github.yaml'), `${text}\n# edited after the build\n`);
    assert.equal(
      DefinitionRegistry.loadFromDir(own, cache).bySlug('github')?.description,
      parsed.description,
    );
  });

  it('running from the sources reads only a cache those very sources wrote; a missing file is an empty cache', () => {
    const file = join(tmp, 'stale.json');
    writeDefinitionCache(DIR, file);
    assert.equal(readDefinitionCache(file).size, files.length);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(written.sources, sourcesKey());
    // As if the parser had been edited after the build: the sources no longer hash to the key it was written with.
    writeFileSync(file, JSON.stringify({ ...written, sources: 'f'.repeat(64) }));
    assert.equal(readDefinitionCache(file).size, 0);
    assert.equal(readDefinitionCache(file, 'build').size, files.length);
    assert.equal(readDefinitionCache(join(tmp, 'none.json'), 'build').size, 0);
  });

  it('the sources key changes with any source file', () => {
    const src = mkdtempSync(join(tmp, 'src-'));
    writeFileSync(join(src, 'a.ts'), 'export const a = 1;\n');
    const before = sourcesKey(src);
    assert.equal(sourcesKey(src), before);
    writeFileSync(join(src, 'a.ts'), 'export const a = 2;\n');
    assert.notEqual(sourcesKey(src), before);
  });
});
