/**
 * The one registry of hook modules, by the name a definition's top-level `hooks` gives. Provider names are
 * written in TypeScript only in this folder (scripts/check-provider-names.mjs).
 */
import type { ConnectorDefinition } from '../schema.ts';
import { confluence } from './confluence.ts';
import { gong } from './gong.ts';
import type { ConnectorHooks } from './types.ts';

export { type ConnectorHooks, HOOK_POINTS, type HookPoint } from './types.ts';

const HOOKS: Readonly<Record<string, ConnectorHooks>> = Object.freeze({ confluence, gong });

export const HOOK_NAMES: readonly string[] = Object.keys(HOOKS).sort();

/** The module named `name`, or undefined for a name the registry does not hold. */
export function hookModule(name: string): ConnectorHooks | undefined {
  return Object.hasOwn(HOOKS, name) ? HOOKS[name] : undefined;
}

/** The definition's hook module; a loaded definition names only a registered one (load.ts). */
export function hooksOf(def: Pick<ConnectorDefinition, 'hooks'>): ConnectorHooks {
  return (def.hooks === undefined ? undefined : hookModule(def.hooks)) ?? {};
}
