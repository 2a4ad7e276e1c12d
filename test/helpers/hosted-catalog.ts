import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One connector of the hosted service's catalog: what the parity tests compare a definition with. */
export interface HostedConnector {
  definition_id: string;
  /** The entities the hosted Context Store indexes. */
  context_store_entities: string[];
  /** entity -> action -> the param names it takes (and body member names, where it has a body). */
  entities: Record<string, Record<string, { params: string[]; body?: string[] }>>;
}

const CATALOG_PATH = path.resolve(import.meta.dirname, '../reference/anchor-catalog.json');

let catalog: Record<string, HostedConnector> | undefined;

/**
 * The hosted catalog's entry for a connector slug (test/reference/anchor-catalog.json, reduced by
 * `npm run reference:facts`); throws when the catalog has no such connector, so a parity test cannot pass on
 * nothing.
 */
export function hostedConnector(slug: string): HostedConnector {
  catalog ??= JSON.parse(readFileSync(CATALOG_PATH, 'utf8')) as Record<string, HostedConnector>;
  const entry = catalog[slug];
  if (!entry) throw new Error(`the hosted catalog has no connector ${slug}`);
  return entry;
}
