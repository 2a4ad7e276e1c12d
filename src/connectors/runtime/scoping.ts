/**
 * Required params a connector's replication_config already answers (the definition's `scoping`): a GitHub
 * connector configured for one repository lists its issues without being told `owner` and `repo` again, as the
 * hosted service does. Only a single scope counts: with two repositories, or `owner/*`, ces can't know which
 * one the caller means, so the param stays required and the refusal lists what is configured.
 */
import type { ConnectorDefinition, ScopingDefinition } from '../schema.ts';
import { matchPattern, placeholders } from '../template.ts';

/** What the replication_config says about one scoped param. */
export type Scope =
  | { kind: 'one'; value: string }
  | { kind: 'unscoped'; config: string; configured: string[]; reason: string };

export interface ScopeSource {
  def: ConnectorDefinition;
  config: Record<string, unknown>;
}

/** The scope of `param`, or undefined when the definition doesn't scope it. */
export function scopeOf(source: ScopeSource, param: string): Scope | undefined {
  const entry = source.def.scoping?.find((s) => s.param === param);
  if (!entry) return undefined;
  const raw = source.config[entry.config];
  const items = Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : [];
  const values = new Set<string>();
  let wildcard = false;
  for (const item of items) {
    const found = matchPattern(entry.pattern, item);
    if (!found) continue;
    const value = scopedValue(entry, found);
    if (value === undefined) wildcard = true;
    else values.add(value);
  }
  const [only] = values;
  if (!wildcard && values.size === 1 && only !== undefined) return { kind: 'one', value: only };
  const shown = items.slice(0, 10).join(', ') + (items.length > 10 ? `, and ${items.length - 10} more` : '');
  const at = `replication_config.${entry.config}`;
  const reason =
    values.size === 0 && !wildcard
      ? `${at} names none to take it from${items.length > 0 ? ` (${shown})` : ''}`
      : `${at} names more than one (${shown}), so give the one you mean`;
  return { kind: 'unscoped', config: entry.config, configured: items, reason };
}

/** The param's value from one item, or undefined when a placeholder it uses is the wildcard `*`. */
function scopedValue(entry: ScopingDefinition, found: Record<string, string>): string | undefined {
  const template = entry.value ?? `{${entry.param}}`;
  let wildcard = false;
  const value = template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const part = found[name] ?? '';
    if (part === '*') wildcard = true;
    return part;
  });
  return wildcard || placeholders(template).length === 0 ? undefined : value;
}
