// The dependency direction of docs in ../shared/conventions.md, checked over every relative import under src/
// (run by `npm run lint`; test/unit/layers.test.ts checks the rules themselves):
//   http, cli, mcp → core → {connectors, context-store, security, store/port}; store adapters implement the port and
//   never import core; connectors and context-store never import core, http or an adapter (context-store, the
//   domain the port stores, not even the store); security imports only
//   config; the store adapter is chosen in one place (src/store/open.ts). Every layer may use src/errors.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const KERNEL = 'src/errors.ts';
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
  store: under('src/store'),
  adapter: (f) => under('src/store/sqlite')(f) || under('src/store/postgres')(f),
  composition: (f) => ['src/app.ts', 'src/deps.ts', 'src/main.ts'].includes(f),
};

/** Each rule: the files it applies to, and why an import of `to` from there is wrong (or null). */
const RULES = [
  {
    from: (f) => is.store(f) && f !== 'src/store/open.ts',
    wrong: (to) =>
      (is.core(to) && to !== KERNEL) || is.http(to) || is.cli(to) || is.composition(to)
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
      (is.core(to) && to !== KERNEL) || is.http(to) || is.cli(to) || is.composition(to)
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
      is.security(to) || is.config(to) || to === KERNEL
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
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const found = violations(importEdges(root));
  for (const line of found) console.error(line);
  if (found.length > 0) {
    console.error(`${found.length} import(s) against the dependency direction (../shared/conventions.md)`);
    process.exit(1);
  }
}
