/**
 * `select_fields` / `exclude_fields` of an execute request: dot paths applied to each record.
 * Arrays met along a path are traversed element by element (`labels.name` keeps the name of every label).
 * Select wins: an exclude path equal to, or an ancestor of, a selected path is ignored.
 */
type Tree = Map<string, Tree | true>;

export function applyFieldSelection(
  value: unknown,
  select?: string[] | null,
  exclude?: string[] | null,
): unknown {
  const selected = paths(select);
  const excluded = paths(exclude).filter((ex) => !selected.some((sel) => startsWith(sel, ex)));
  if (selected.length === 0 && excluded.length === 0) return value;
  const keep = selected.length > 0 ? tree(selected) : undefined;
  const drop = excluded.length > 0 ? tree(excluded) : undefined;
  const apply = (record: unknown) => {
    let out = keep ? pick(record, keep) : record;
    if (drop) out = omit(out, drop);
    return out;
  };
  return Array.isArray(value) ? value.map(apply) : apply(value);
}

function paths(list: string[] | null | undefined): string[][] {
  return (list ?? []).map((p) => p.split('.').filter((s) => s.length > 0)).filter((p) => p.length > 0);
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => path[i] === seg);
}

function tree(list: string[][]): Tree {
  const root: Tree = new Map();
  for (const path of list) {
    let node = root;
    for (const [i, seg] of path.entries()) {
      const existing = node.get(seg);
      if (existing === true) break; // a shorter path already takes the whole subtree
      if (i === path.length - 1) {
        node.set(seg, true);
        break;
      }
      const next: Tree = existing ?? new Map();
      node.set(seg, next);
      node = next;
    }
  }
  return root;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pick(value: unknown, keep: Tree): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, keep));
  // A path that runs into a scalar (or null) keeps the scalar: there is nothing below it to choose from.
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of keep) {
    if (!Object.hasOwn(value, key)) continue;
    out[key] = sub === true ? value[key] : pick(value[key], sub);
  }
  return out;
}

function omit(value: unknown, drop: Tree): unknown {
  if (Array.isArray(value)) return value.map((v) => omit(v, drop));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, sub] of drop) {
    if (!Object.hasOwn(out, key)) continue;
    if (sub === true) delete out[key];
    else out[key] = omit(out[key], sub);
  }
  return out;
}
