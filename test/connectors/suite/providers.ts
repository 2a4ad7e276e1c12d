// Each connector's provider for the definition-driven suite lives beside its fake and cases, in
// test/connectors/<slug>/suite.ts (exporting `provider`); this finds it by the definition's slug.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SuiteProvider } from './types.ts';

/** The slug's provider, or undefined when test/connectors/<slug>/suite.ts does not exist. */
export async function providerFor(slug: string): Promise<SuiteProvider | undefined> {
  const file = new URL(`../${slug}/suite.ts`, import.meta.url);
  if (!existsSync(fileURLToPath(file))) return undefined;
  // A template import, not import(file.href): a bundler sees which files it may load (scripts/test-bundle.mjs).
  const mod = (await import(`../${slug}/suite.ts`)) as { provider?: SuiteProvider };
  if (mod.provider === undefined) throw new Error(`${fileURLToPath(file)} exports no provider`);
  return mod.provider;
}
