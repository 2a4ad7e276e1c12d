/**
 * A response schema rewritten for fast-json-stringify into one that writes the same JSON for the same valid
 * answer but needs no validator. fast-json-stringify 7 builds an Ajv instance for every schema holding an
 * `anyOf` (it validates the value to choose a branch), and TypeBox writes a nullable field or a union of
 * literals as one: the error body has one (`field`), so every route's error serializer built an Ajv instance of
 * its own. With this and the serializers shared between equal schemas (lazy-schemas.ts), the CPU a process spends
 * compiling schemas after it starts went from 1.7–2.0 s to about 0.7 s on the bench machine. Two shapes are
 * rewritten, the others kept as they are:
 * - `anyOf: [S, {type: 'null'}]` (either order), S with one type: S with `nullable: true`;
 * - `anyOf` of `const`s of one type (a TypeBox union of literals): that type, with the values as `enum`.
 * The route's own schema (validation, the OpenAPI document) is not touched: this is a copy for the serializer.
 */
type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

export function serializerSchema(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  let out: Schema = schema;
  const copy = () => {
    if (out === schema) out = { ...schema };
    return out;
  };
  for (const key of ['items', 'additionalProperties'] as const) {
    const inner = schema[key];
    const next = serializerSchema(inner);
    if (next !== inner) copy()[key] = next;
  }
  for (const key of ['properties', 'patternProperties', 'definitions', '$defs'] as const) {
    const map = schema[key];
    if (!isSchema(map)) continue;
    let changed: Schema | undefined;
    for (const [name, inner] of Object.entries(map)) {
      const next = serializerSchema(inner);
      if (next !== inner) {
        changed ??= { ...map };
        changed[name] = next;
      }
    }
    if (changed) copy()[key] = changed;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const next = list.map(serializerSchema);
    if (next.some((s, i) => s !== list[i])) copy()[key] = next;
  }
  return simplified(out) ?? out;
}

/** The anyOf at the top of `schema` as one of the two shapes above; undefined if it is neither. */
function simplified(schema: Schema): Schema | undefined {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length < 2 || !branches.every(isSchema)) return undefined;
  const { anyOf: _, ...around } = schema;
  // Keywords beside the anyOf that would change its meaning: keep the anyOf.
  if ('type' in around || 'const' in around || 'enum' in around || 'nullable' in around) return undefined;
  const nulls = branches.filter((b) => b.type === 'null' && Object.keys(b).every(isAnnotationOrType));
  if (branches.length === 2 && nulls.length === 1) {
    const other = branches.find((b) => !nulls.includes(b)) as Schema;
    if (
      typeof other.type === 'string' &&
      other.type !== 'null' &&
      other.const === undefined &&
      !other.nullable
    ) {
      return { ...other, ...around, nullable: true };
    }
    return undefined;
  }
  const type = branches[0]?.type;
  const literals =
    typeof type === 'string' &&
    branches.every(
      (b) =>
        b.type === type &&
        b.const !== undefined &&
        Object.keys(b).every((k) => k === 'const' || isAnnotationOrType(k)),
    );
  if (!literals) return undefined;
  return { ...around, type, enum: branches.map((b) => b.const) };
}

const ANNOTATIONS = new Set(['type', 'title', 'description', 'examples', 'example', 'default', '$comment']);
const isAnnotationOrType = (key: string) => ANNOTATIONS.has(key);
