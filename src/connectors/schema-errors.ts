/**
 * Turns TypeBox validation errors into short `path: message` lines a definition author can act on.
 * Unions (pagination, auth) make raw JSON Schema output noisy: every branch reports its own failure. For a
 * union whose branches are told apart by a `type` constant, only the branch the document names is reported.
 */
export interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

export function describeSchemaErrors(raw: Iterable<SchemaError>, schema: unknown, value: unknown): string[] {
  let errors = [...raw].filter((e) => e.keyword !== 'boolean');
  // Innermost unions first, so an outer union sees its inner ones already condensed.
  const unions = errors.filter((e) => e.keyword === 'anyOf').sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const union of unions) errors = resolveUnion(errors, union, schema, value);
  return [...new Set(errors.flatMap(lines))];
}

function resolveUnion(errors: SchemaError[], union: SchemaError, schema: unknown, value: unknown): SchemaError[] {
  const branchPrefix = `${union.schemaPath}/anyOf/`;
  const inUnion = (e: SchemaError) =>
    e.schemaPath.startsWith(branchPrefix) && isWithin(e.instancePath, union.instancePath);
  const members = errors.filter(inUnion);
  const rest = errors.filter((e) => e !== union && !inUnion(e));
  const branches = (pointer(schema, union.schemaPath.replace(/^#/, '')) as { anyOf?: unknown[] } | undefined)?.anyOf;
  const tags = (branches ?? []).map((b) => (pointer(b, '/properties/type') as { const?: unknown } | undefined)?.const);
  if (tags.length > 0 && tags.every((t) => typeof t === 'string')) {
    const chosen = tags.indexOf(pointer(value, `${union.instancePath}/type`));
    if (chosen >= 0) return [...rest, ...members.filter((e) => e.schemaPath.startsWith(`${branchPrefix}${chosen}/`) || e.schemaPath === `${branchPrefix}${chosen}`)];
    const allowed = tags.map((t) => JSON.stringify(t)).join(', ');
    return [...rest, synthetic(union, `${union.instancePath}/type`, `must be one of ${allowed}`)];
  }
  // A union of scalars or literals: say what would have been accepted.
  const consts = members.filter((e) => e.keyword === 'const').map((e) => JSON.stringify(e.params.allowedValue));
  const types = members.filter((e) => e.keyword === 'type').map((e) => String(e.params.type));
  if (members.length > 0 && consts.length + types.length === members.length) {
    const what = consts.length > 0 ? `one of ${consts.join(', ')}` : types.join(' or ');
    return [...rest, synthetic(union, union.instancePath, `must be ${what}`)];
  }
  return [...rest, ...members];
}

/** RFC 6901 pointer lookup (`/a/0/b`), undefined when absent. */
function pointer(root: unknown, path: string): unknown {
  let cur = root;
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function isWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

function synthetic(union: SchemaError, instancePath: string, message: string): SchemaError {
  return { keyword: 'union', schemaPath: union.schemaPath, instancePath, params: {}, message };
}

function lines(e: SchemaError): string[] {
  if (e.keyword === 'anyOf') return [];
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params.additionalProperties as string[] | undefined) ?? [];
    return extra.map((k) => `${e.instancePath}/${k}: unknown property`);
  }
  if (e.keyword === 'required') {
    const missing = (e.params.requiredProperties as string[] | undefined) ?? [];
    return missing.map((k) => `${e.instancePath}/${k}: required property is missing`);
  }
  return [`${e.instancePath || '/'}: ${e.message}`];
}
