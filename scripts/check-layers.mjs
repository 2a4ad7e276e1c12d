// The dependency direction of docs in ../shared/conventions.md, checked over every relative import under src/
// (run by `npm run lint`; test/unit/layers.test.ts checks the rules themselves). Two checks:
// - LAYERS, bottom to top: an import may point down or within its own layer, never up. It counts the arrows
//   between layers that run against this order, and finds every circle of layers (an import cycle between
//   layers); the goal, and what the lint requires, is none of either. A file under src/ that no layer claims
//   fails the check, so a new folder cannot slip past it.
// - RULES, finer than the order: http, cli, mcp → core → {connectors, context-store, security, store/port};
//   http never imports the store (port or adapter) or the composition root; store adapters implement the port
//   and never import core; connectors and context-store never import core, http or an adapter (context-store,
//   the domain the port stores, not even the store); security imports only config; the store adapter is chosen
//   in one place (src/store/open.ts). Every layer may use src/errors.ts, the ground floor.
// `node scripts/check-layers.mjs [root]` checks another checkout (e.g. an older one, to compare the counts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const under = (dir) => (file) => file === dir || file.startsWith(`${dir}/`);
const is = {
  http: under('src/http'),
  cli: under('src/cli'),
  mcp: under('src/mcp'),
  core: under('src/core'),
  connectors: under('src/connectors'),
  contextStore: under('src/context-store'),
  security: under('src/security'),
  config: under('src/config'),
  errors: (f) => f === 'src/errors.ts',
  store: under('src/store'),
  adapter: (f) => under('src/store/sqlite')(f) || under('src/store/postgres')(f),
  composition: (f) => ['src/app.ts', 'src/deps.ts', 'src/main.ts'].includes(f),
};

/** The layers, bottom first: each may import the ones before it (and itself), never one after it. */
export const LAYERS = [
  // the ground floor: the error kernel and leaves that import nothing of ours
  {
    name: 'ground',
    has: (f) => is.errors(f) || is.config(f) || ['src/logger.ts', 'src/source-path.ts'].includes(f),
  },
  { name: 'security', has: is.security },
  { name: 'connectors', has: is.connectors },
  { name: 'context-store', has: is.contextStore },
  { name: 'store', has: (f) => is.store(f) && !is.adapter(f) && f !== 'src/store/open.ts' },
  { name: 'store adapters', has: is.adapter },
  { name: 'store/open', has: (f) => f === 'src/store/open.ts' },
  { name: 'core', has: is.core },
  { name: 'metrics', has: under('src/metrics') },
  { name: 'mcp', has: is.mcp },
  { name: 'http', has: is.http },
  { name: 'app', has: (f) => f === 'src/app.ts' },
  { name: 'deps', has: (f) => f === 'src/deps.ts' },
  { name: 'cli', has: is.cli },
  { name: 'main', has: (f) => f === 'src/main.ts' },
];

/** The index in LAYERS of the layer holding `file`, or -1. */
export function layerOf(file) {
  return LAYERS.findIndex((layer) => layer.has(file));
}

/** Each rule: the files it applies to, and why an import of `to` from there is wrong (or null). */
const RULES = [
  {
    from: (f) => is.store(f) && f !== 'src/store/open.ts',
    wrong: (to) =>
      is.core(to) || is.http(to) || is.cli(to) || is.composition(to)
        ? 'the store (port and adapters) never imports core, http, cli or the composition root'
        : null,
  },
  {
    from: (f) => !is.adapter(f) && f !== 'src/store/open.ts',
    wrong: (to) => (is.adapter(to) ? 'the store adapter is opened only in src/store/open.ts' : null),
  },
  {
    from: (f) => is.connectors(f) || is.contextStore(f),
    wrong: (to) =>
      is.core(to) || is.http(to) || is.cli(to) || is.composition(to)
        ? 'connectors and context-store never import core, http, cli or the composition root'
        : null,
  },
  {
    // The store port stores the Context Store's domain types: the domain never reaches back into the store.
    from: is.contextStore,
    wrong: (to) =>
      is.store(to) ? 'context-store is the domain the store port stores; it never imports the store' : null,
  },
  {
    from: is.security,
    wrong: (to) =>
      is.security(to) || is.config(to) || is.errors(to)
        ? null
        : 'security imports only config (and src/errors.ts)',
  },
  {
    from: is.core,
    wrong: (to) =>
      is.http(to) || is.cli(to) || is.mcp(to) || is.composition(to)
        ? 'core never imports http, cli, mcp or the composition root'
        : null,
  },
  {
    // A handler reads through core verbs: no SQL, no store types; what it presents is the shape a verb returns.
    from: is.http,
    wrong: (to) =>
      is.store(to) || is.cli(to) || is.composition(to)
        ? 'http calls core verbs; it never imports the store (port or adapter), cli or the composition root'
        : null,
  },
  {
    // The MCP server is a transport beside http: it calls core verbs, never the HTTP layer.
    from: is.mcp,
    wrong: (to) =>
      is.http(to) || is.cli(to) || is.composition(to) || is.store(to)
        ? 'mcp calls core verbs; it never imports http, cli, the store or the composition root'
        : null,
  },
];

/** The wrong-way imports among `edges` ([importer, imported], repository-relative paths). */
export function violations(edges) {
  const out = [];
  for (const [from, to] of edges) {
    for (const rule of RULES) {
      if (!rule.from(from)) continue;
      const why = rule.wrong(to);
      if (why) out.push(`${from} imports ${to}: ${why}`);
    }
  }
  return out;
}

/**
 * The imports between layers, by pair of layers: `arrows` every pair with the files' import count,
 * `against` the pairs that point up the order, `unplaced` the files no layer claims.
 */
export function layerArrows(edges) {
  const arrows = new Map();
  const unplaced = new Set();
  for (const [from, to] of edges) {
    const a = layerOf(from);
    const b = layerOf(to);
    if (a === -1) unplaced.add(from);
    if (b === -1) unplaced.add(to);
    if (a === -1 || b === -1 || a === b) continue;
    const key = `${a} ${b}`;
    const arrow = arrows.get(key) ?? { from: LAYERS[a].name, to: LAYERS[b].name, up: a < b, imports: [] };
    arrow.imports.push(`${from} -> ${to}`);
    arrows.set(key, arrow);
  }
  const all = [...arrows.values()];
  return { arrows: all, against: all.filter((a) => a.up), unplaced: [...unplaced].sort() };
}

/** Every circle in the graph of layers (its strongly connected components of two layers or more). */
export function layerCycles(edges) {
  const next = new Map();
  for (const { from, to } of layerArrows(edges).arrows) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from).add(to);
  }
  // Tarjan's algorithm; the graph has a dozen nodes, so recursion depth is no concern.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Every relative import of every .ts file under `dir`, as [importer, imported] repository-relative paths. */
export function importEdges(root, dir = 'src') {
  const walk = (d) =>
    fs.readdirSync(path.join(root, d)).flatMap((name) => {
      const rel = `${d}/${name}`;
      if (fs.statSync(path.join(root, rel)).isDirectory()) return walk(rel);
      return rel.endsWith('.ts') ? [rel] : [];
    });
  const edges = [];
  for (const file of walk(dir)) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      edges.push([file, path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]))]);
    }
  }
  return edges;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const edges = importEdges(root);
  const found = violations(edges);
  const { arrows, against, unplaced } = layerArrows(edges);
  const cycles = layerCycles(edges);
  for (const line of found) console.error(line);
  for (const file of unplaced) console.error(`${file}: in no layer of scripts/check-layers.mjs LAYERS`);
  for (const a of against) {
    console.error(`${a.from} -> ${a.to} runs up the layers (${a.imports.length} import(s)):`);
    for (const i of a.imports) console.error(`  ${i}`);
  }
  for (const c of cycles) console.error(`a circle of layers: ${c.join(', ')}`);
  const imports = against.reduce((n, a) => n + a.imports.length, 0);
  console.log(
    `${arrows.length} arrows between layers; ${against.length} against the layers (${imports} imports); ` +
      `${cycles.length} circle(s) of layers; ${found.length} rule violation(s)`,
  );
  if (found.length > 0 || unplaced.length > 0 || against.length > 0 || cycles.length > 0) {
    console.error('imports against the dependency direction (../shared/conventions.md)');
    process.exit(1);
  }
}
