/**
 * Turns TypeBox validation errors into short `path: message` lines a definition author can act on.
 * Unions (pagination, auth) make raw JSON Schema output noisy: every branch reports its own failure. A branch
 * whose `type` discriminator does not match is dropped, so the author sees the error of the branch they meant.
 */
export interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

export function describeSchemaErrors(raw: Iterable<SchemaError>): string[] {
  let errors = [...raw].filter((e) => e.keyword !== 'boolean');
  const unions = errors.filter((e) => e.keyword === 'anyOf').sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const union of unions) errors = resolveUnion(errors, union);
  const lines = errors.filter((e) => e.keyword !== 'anyOf').map(line);
  return [...new Set(lines)];
}

function resolveUnion(errors: SchemaError[], union: SchemaError): SchemaError[] {
  const branchPrefix = `${union.schemaPath}/anyOf/`;
  const inUnion = (e: SchemaError) =>
    e.schemaPath.startsWith(branchPrefix) && isWithin(e.instancePath, union.instancePath);
  const members = errors.filter(inUnion);
  const rest = errors.filter((e) => e !== union && !inUnion(e));
  const byBranch = new Map<string, SchemaError[]>();
  for (const e of members) {
    const branch = e.schemaPath.slice(branchPrefix.length).split('/')[0] ?? '';
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
  }
  const typePath = `${union.instancePath}/type`;
  const mismatched = (list: SchemaError[]) => list.some((e) => e.keyword === 'const' && e.instancePath === typePath);
  if ([...byBranch.values()].some(mismatched)) {
    const matching = [...byBranch.values()].filter((list) => !mismatched(list));
    if (matching.length > 0) return [...rest, ...matching.flat()];
    const allowed = members
      .filter((e) => e.keyword === 'const' && e.instancePath === typePath)
      .map((e) => JSON.stringify(e.params.allowedValue));
    return [...rest, synthetic(union, typePath, `must be one of ${[...new Set(allowed)].join(', ')}`)];
  }
  // A union of scalars or literals (e.g. an enum written as a union): say what would have been accepted.
  const consts = members.filter((e) => e.keyword === 'const').map((e) => JSON.stringify(e.params.allowedValue));
  const types = members.filter((e) => e.keyword === 'type').map((e) => String(e.params.type));
  if (consts.length + types.length === members.length && members.length > 0) {
    const what = consts.length > 0 ? `one of ${consts.join(', ')}` : types.join(' or ');
    return [...rest, synthetic(union, union.instancePath, `must be ${what}`)];
  }
  return [...rest, ...members];
}

function isWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

function synthetic(union: SchemaError, instancePath: string, message: string): SchemaError {
  return { keyword: 'union', schemaPath: union.schemaPath, instancePath, params: {}, message };
}

function line(e: SchemaError): string {
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params.additionalProperties as string[] | undefined) ?? [];
    return extra.map((k) => `${e.instancePath}/${k}: unknown property`).join('\n');
  }
  if (e.keyword === 'required') {
    const missing = (e.params.requiredProperties as string[] | undefined) ?? [];
    return missing.map((k) => `${e.instancePath}/${k}: required property is missing`).join('\n');
  }
  return `${e.instancePath || '/'}: ${e.message}`;
}
