/**
 * The shipped definitions, parsed and checked by the build (scripts/build.mjs) and stored beside the compiled
 * code, keyed by the SHA-256 of each file's text. Start-up then skips parsing ~450 KB of YAML and checking it
 * (most of a second): a file whose text is in the cache is the file the build checked, with the same code. A
 * file that was edited after the build, or a directory of one's own, misses the cache and is parsed and checked
 * as always. Running from the TypeScript sources (the tests, `npm run dev`) the cache is read only when it was
 * written by these very sources (`sourcesKey`, the hash of every .ts file under src/): a parser edited after the
 * build cannot answer with what the old one checked. The tests start ~300 processes that each load every
 * definition; parsing them cost each ~0.5 s of CPU (~1.9 s on a cold process), the cache ~20 ms.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile, RUNNING_BUILD } from '../source-path.ts';
import { parseDefinition } from './load.ts';
import type { ConnectorDefinition } from './schema.ts';

/** Where the build stores it. */
export const DEFINITION_CACHE_FILE = packageFile('dist/definitions.cache.json');

export const definitionKey = (text: string): string => createHash('sha256').update(text).digest('hex');

const SOURCES_DIR = fileURLToPath(packageFile('src/'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return entry.name.endsWith('.ts') ? [full] : [];
    })
    .sort();
}

let ownSources: string | undefined;

/** The hash of every TypeScript source under `dir` (names and texts): what the parsing and checking code is. */
export function sourcesKey(dir = SOURCES_DIR): string {
  if (dir === SOURCES_DIR && ownSources) return ownSources;
  const hash = createHash('sha256');
  for (const file of sourceFiles(dir))
    hash.update(file.slice(dir.length)).update('\0').update(readFileSync(file)).update('\0');
  const key = hash.digest('hex');
  if (dir === SOURCES_DIR) ownSources = key;
  return key;
}

/**
 * The build's parsed definitions by text key. `trust`: `build` takes the file as the bundle's own (a process of
 * the build); `sources` only when the sources that wrote it are the ones running (the default from src/).
 */
export function readDefinitionCache(
  file: URL | string = DEFINITION_CACHE_FILE,
  trust: 'build' | 'sources' = RUNNING_BUILD ? 'build' : 'sources',
): Map<string, ConnectorDefinition> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  const cache = JSON.parse(text) as { sources?: string; definitions: Record<string, ConnectorDefinition> };
  if (trust === 'sources' && cache.sources !== sourcesKey()) return new Map();
  return new Map(Object.entries(cache.definitions));
}

/** Parses and checks every `*.yaml` in `dir` and stores the results; a bad file fails the build. */
export function writeDefinitionCache(dir: string, file: URL | string = DEFINITION_CACHE_FILE): number {
  const definitions: Record<string, ConnectorDefinition> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    definitions[definitionKey(text)] = parseDefinition(text, file);
  }
  writeFileSync(file, JSON.stringify({ sources: sourcesKey(), definitions }));
  return Object.keys(definitions).length;
}
