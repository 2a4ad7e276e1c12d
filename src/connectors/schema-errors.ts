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
  const plain: SchemaError[] = [];
  const unions = new Map<string, { at: string; instance: string; members: Array<[number, SchemaError]> }>();
  for (const e of raw) {
    if (e.keyword === 'boolean' || e.keyword === 'anyOf') continue; // duplicates of more precise errors
    const cut = e.schemaPath.lastIndexOf('/anyOf/');
    if (cut < 0) {
      plain.push(e);
      continue;
    }
    // The innermost union this error came from, and where in the document that union sits.
    const at = e.schemaPath.slice(0, cut);
    const branch = Number(e.schemaPath.slice(cut + 7).split('/')[0]);
    const instance = e.instancePath
      .split('/')
      .slice(0, instanceDepth(at) + 1)
      .join('/');
    const key = `${at}|${instance}`;
    const group = unions.get(key) ?? { at, instance, members: [] };
    group.members.push([branch, e]);
    unions.set(key, group);
  }
  for (const { at, instance, members } of unions.values())
    plain.push(...resolveUnion(at, instance, members, schema, value));
  return [...new Set(plain.flatMap(lines))];
}

function resolveUnion(
  at: string,
  instance: string,
  members: Array<[number, SchemaError]>,
  schema: unknown,
  value: unknown,
): SchemaError[] {
  const branches = (pointer(schema, at.replace(/^#/, '')) as { anyOf?: unknown[] } | undefined)?.anyOf ?? [];
  const tags = branches.map(
    (b) => (pointer(b, '/properties/type') as { const?: unknown } | undefined)?.const,
  );
  if (tags.length > 0 && tags.every((t) => typeof t === 'string')) {
    const chosen = tags.indexOf(pointer(value, `${instance}/type`) as string);
    if (chosen >= 0) return members.filter(([b]) => b === chosen).map(([, e]) => e);
    const allowed = tags.map((t) => JSON.stringify(t)).join(', ');
    return [synthetic(`${instance}/type`, `must be one of ${allowed}`)];
  }
  // A union of scalars or literals: say what would have been accepted.
  const errors = members.map(([, e]) => e);
  const consts = errors
    .filter((e) => e.keyword === 'const')
    .map((e) => JSON.stringify(e.params.allowedValue));
  const types = errors.filter((e) => e.keyword === 'type').map((e) => String(e.params.type));
  if (consts.length + types.length === errors.length) {
    return [
      synthetic(
        instance,
        `must be ${consts.length > 0 ? `one of ${consts.join(', ')}` : types.join(' or ')}`,
      ),
    ];
  }
  return errors;
}

/** How many document levels a schema path descends (`properties/x`, `items`, ... each add one). */
function instanceDepth(schemaPath: string): number {
  const segs = schemaPath.replace(/^#/, '').split('/').slice(1);
  let depth = 0;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (seg === 'properties' || seg === 'patternProperties') {
      depth++;
      i++;
    } else if (seg === 'items' || seg === 'additionalProperties') depth++;
    else if (seg === 'anyOf' || seg === 'allOf' || seg === 'oneOf') i++;
  }
  return depth;
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

function synthetic(instancePath: string, message: string): SchemaError {
  return { keyword: 'union', schemaPath: '', instancePath, params: {}, message };
}

function lines(e: SchemaError): string[] {
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
