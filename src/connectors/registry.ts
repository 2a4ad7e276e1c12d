import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../source-path.ts';
import { definitionKey, readDefinitionCache } from './definition-cache.ts';
import { deepFreeze, parseDefinition } from './load.ts';
import type { ConnectorDefinition } from './schema.ts';

const DEFAULT_DIR = fileURLToPath(packageFile('src/connectors/definitions/'));

/** The connector types this process serves, loaded once at start-up from YAML files. Immutable. */
export class DefinitionRegistry {
  private readonly defs: readonly ConnectorDefinition[];
  private readonly ids = new Map<string, ConnectorDefinition>();
  private readonly names = new Map<string, ConnectorDefinition>();

  constructor(definitions: ConnectorDefinition[]) {
    this.defs = [...definitions].sort((a, b) => a.name.localeCompare(b.name));
    for (const def of this.defs) {
      const id = def.id.toLowerCase();
      if (this.ids.has(id)) throw new Error(`duplicate connector definition id ${def.id}`);
      this.ids.set(id, def);
      // Slug and display name share one namespace: `connector_type` accepts either, so neither may be ambiguous.
      for (const key of new Set([def.slug.toLowerCase(), def.name.toLowerCase()])) {
        const other = this.names.get(key);
        if (other)
          throw new Error(`connector definitions '${other.slug}' and '${def.slug}' both claim '${key}'`);
        this.names.set(key, def);
      }
    }
  }

  /**
   * Reads every `*.yaml` in `dir`; any bad file fails the whole load, naming the file and the path inside it. A
   * file whose exact text the build checked comes from `cache` (definition-cache.ts) instead of being parsed.
   */
  static loadFromDir(dir: string, cache = readDefinitionCache()): DefinitionRegistry {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    const defs: ConnectorDefinition[] = [];
    const origin = new Map<string, string>();
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      const cached = cache.size > 0 ? cache.get(definitionKey(text)) : undefined;
      const def = cached ? deepFreeze(cached) : parseDefinition(text, file);
      for (const key of [
        `id ${def.id.toLowerCase()}`,
        `slug ${def.slug}`,
        `name ${def.name.toLowerCase()}`,
      ]) {
        const prev = origin.get(key);
        if (prev) throw new Error(`${file}: duplicate ${key.replace(' ', " '")}' (also in ${prev})`);
        origin.set(key, file);
      }
      defs.push(def);
    }
    return new DefinitionRegistry(defs);
  }

  /** The directory of the definitions shipped with ces. */
  static readonly DEFAULT_DIR = DEFAULT_DIR;

  /** The definitions shipped with ces (`src/connectors/definitions`). */
  static default(): DefinitionRegistry {
    return DefinitionRegistry.loadFromDir(DEFAULT_DIR);
  }

  all(): ConnectorDefinition[] {
    return [...this.defs];
  }

  byId(id: string): ConnectorDefinition | undefined {
    return this.ids.get(id.toLowerCase());
  }

  /** Case-insensitive slug or display name (`github`, `GitHub`, `Zendesk-Support`). */
  bySlug(slug: string): ConnectorDefinition | undefined {
    return this.names.get(slug.trim().toLowerCase());
  }

  searchByName(partial: string): ConnectorDefinition[] {
    const needle = partial.trim().toLowerCase();
    return this.defs.filter((d) => d.name.toLowerCase().includes(needle) || d.slug.includes(needle));
  }
}
