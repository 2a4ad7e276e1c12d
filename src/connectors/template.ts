/**
 * `{name}` templates used by base URLs, paths and credential placement. Deliberately tiny: no expressions,
 * no escapes, so a definition can't smuggle logic into the runtime.
 */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

/** Replaces each `{name}` with `encode(values[name])`; a missing value is a programming error upstream of this. */
export function render(
  template: string,
  values: Record<string, string>,
  encode: (value: string) => string = (v) => v,
): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`template value '${name}' is missing`);
    return encode(value);
  });
}
