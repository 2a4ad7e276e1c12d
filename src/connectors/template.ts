/**
 * `{name}` templates used by base URLs, paths and credential placement. Deliberately tiny: no expressions,
 * no escapes, so a definition can't smuggle logic into the runtime.
 */
import { BoundedCache } from './bounded-cache.ts';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A template cut at its placeholders: `texts[0] {names[0]} texts[1] … {names[n-1]} texts[n]`. */
interface Parts {
  readonly texts: readonly string[];
  readonly names: readonly string[];
}

/**
 * Templates come from definitions, so there are few of them, and every execute renders or inspects several
 * (base URL, path, auth header, the path's params): each is cut once.
 */
const cut = new BoundedCache<Parts>(4096);

function partsOf(template: string): Parts {
  const kept = cut.get(template);
  if (kept) return kept;
  const texts: string[] = [];
  const names: string[] = [];
  let from = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    texts.push(template.slice(from, m.index));
    names.push(m[1] as string);
    from = m.index + m[0].length;
  }
  texts.push(template.slice(from));
  return cut.keep(template, { texts: Object.freeze(texts), names: Object.freeze(names) });
}

export function placeholders(template: string): readonly string[] {
  return partsOf(template).names;
}

/** Replaces each `{name}` with `encode(values[name])`; a missing value is a programming error upstream of this. */
export function render(
  template: string,
  values: Record<string, string>,
  encode: (value: string) => string = (v) => v,
): string {
  const { texts, names } = partsOf(template);
  let out = texts[0] as string;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const value = values[name];
    if (value === undefined) throw new Error(`template value '${name}' is missing`);
    out += encode(value) + texts[i + 1];
  }
  return out;
}

/**
 * A replication_config item against a pattern (Context Store partitions, scoping): `{owner}/{repo}` against
 * `acme/widgets` → {owner: 'acme', repo: 'widgets'}; undefined when it doesn't fit. A placeholder is one
 * path segment (no `/`).
 */
export function matchPattern(pattern: string, value: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split(/(\{[A-Za-z][A-Za-z0-9_]*\})/)
    .map((part) => {
      const m = /^\{([A-Za-z][A-Za-z0-9_]*)\}$/.exec(part);
      if (m?.[1]) {
        names.push(m[1]);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const match = new RegExp(`^${source}$`).exec(value);
  if (!match) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, match[i + 1] ?? '']));
}
