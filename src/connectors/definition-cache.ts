/**
 * The shipped definitions, parsed and checked by the build (scripts/build.mjs) and stored beside the compiled
 * code, keyed by the SHA-256 of each file's text. Start-up then skips parsing ~450 KB of YAML and checking it
 * (most of a second): a file whose text is in the cache is the file the build checked, with the same code. A
 * file that was edited after the build, or a directory of one's own, misses the cache and is parsed and checked
 * as always. Running from the TypeScript sources there is no cache.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile, RUNNING_BUILD } from '../source-path.ts';
import { parseDefinition } from './load.ts';
import type { ConnectorDefinition } from './schema.ts';

/** Where the build stores it. */
export const DEFINITION_CACHE_FILE = packageFile('dist/definitions.cache.json');

export const definitionKey = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The build's parsed definitions by text key; empty from the sources or when the build wrote none. */
export function readDefinitionCache(
  file: URL | string = DEFINITION_CACHE_FILE,
  enabled = RUNNING_BUILD,
): Map<string, ConnectorDefinition> {
  if (!enabled) return new Map();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  const cache = JSON.parse(text) as { definitions: Record<string, ConnectorDefinition> };
  return new Map(Object.entries(cache.definitions));
}

/** Parses and checks every `*.yaml` in `dir` and stores the results; a bad file fails the build. */
export function writeDefinitionCache(dir: string, file: URL | string = DEFINITION_CACHE_FILE): number {
  const definitions: Record<string, ConnectorDefinition> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    definitions[definitionKey(text)] = parseDefinition(text, file);
  }
  writeFileSync(file, JSON.stringify({ definitions }));
  return Object.keys(definitions).length;
}
