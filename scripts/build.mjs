// Builds ces into dist/ (run by `prepare`, so `npm ci` leaves it built; by `npm run build`; and by `npm test`
// before the tests, whose server processes run it): esbuild bundles the server and its two worker threads' entries
// with their dependencies into three files, with source maps of ces's own code (stack traces name src/ lines). One
// file loads in a fraction of the time Node 20 takes to resolve and compile ~1,500 modules one by one. Then the shipped connector
// definitions are parsed and checked once and stored beside the bundle (src/connectors/definition-cache.ts).
// Data files are not copied: the bundle reads them from src/ (src/source-path.ts).
// Kept out of the bundle: native packages (better-sqlite3, pg-native).
// `--skip-without-typescript`: an install without dev dependencies (no esbuild) skips the build (bin/ces.js then
// runs the sources through tsx) instead of failing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trimSourceMap } from './source-map-trim.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
// Built beside dist/ and swapped in at the end: a process starting meanwhile never finds half a build.
const next = path.join(root, `.dist-${process.pid}`);
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  if (process.argv.includes('--skip-without-typescript')) {
    console.log(
      'ces: esbuild is not installed (no dev dependencies); not built, bin/ces.js runs the sources',
    );
    process.exit(0);
  }
  console.error('ces: esbuild is missing: run npm ci');
  process.exit(1);
}

/**
 * CommonJS dependencies that find their own files through `__dirname`/`__filename` (the API reference page's
 * scripts and styles, a package.json) get the directory they are installed in: a bundle's module has none. The
 * bundle sits one directory below the package root, as node_modules/ beside it.
 */
const ownDirectory = {
  name: 'own-directory',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(text)) return undefined;
      const file = path.relative(root, args.path).split(path.sep).join('/');
      const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : '';
      const own = `var __filename = require('node:path').join(__cesRoot, ${JSON.stringify(file)}), __dirname = require('node:path').dirname(__filename);\n`;
      return {
        contents: shebang + own + text.slice(shebang.length),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

fs.rmSync(next, { recursive: true, force: true });
try {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      main: 'src/main.ts',
      // Flat names: the code starts them as `new URL('./<name>', import.meta.url)` beside main.js.
      'context-writer-thread': 'src/store/sqlite/context-writer-thread.ts',
      'search-reader-thread': 'src/store/sqlite/search-reader-thread.ts',
    },
    outdir: next,
    bundle: true,
    // What the code imports on demand (the MCP SDK, a store adapter, metrics) becomes chunks loaded then.
    splitting: true,
    // Flat, beside the entries: code in a chunk finds the worker entries as './<name>' too.
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    minifyWhitespace: !process.env.CES_BUILD_READABLE,
    minifySyntax: !process.env.CES_BUILD_READABLE,
    external: ['better-sqlite3', 'pg-native'],
    // CommonJS dependencies inside an ES module bundle still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __cesRequire } from 'node:module'; import { fileURLToPath as __cesPath } from 'node:url'; const require = __cesRequire(import.meta.url); const __cesRoot = __cesPath(new URL('../', import.meta.url));",
    },
    plugins: [ownDirectory],
    logLevel: 'warning',
  });
} catch {
  fs.rmSync(next, { recursive: true, force: true });
  process.exit(1);
}

// Each map down to ces's own code (scripts/source-map-trim.mjs): what Node parses at the first stack trace.
for (const name of fs.readdirSync(next).filter((n) => n.endsWith('.js.map'))) {
  const file = path.join(next, name);
  fs.writeFileSync(file, JSON.stringify(trimSourceMap(JSON.parse(fs.readFileSync(file, 'utf8')))));
}

const cached = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    "const { writeDefinitionCache } = await import('./src/connectors/definition-cache.ts'); const { DefinitionRegistry } = await import('./src/connectors/registry.ts'); console.log(writeDefinitionCache(DefinitionRegistry.DEFAULT_DIR, process.argv[1]));",
    path.join(next, 'definitions.cache.json'),
  ],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (cached.status !== 0) {
  // No build without its checked definitions: bin/ces.js would start and fail on them anyway.
  fs.rmSync(next, { recursive: true, force: true });
  process.exit(cached.status ?? 1);
}
const old = path.join(root, `.dist-old-${process.pid}`);
if (fs.existsSync(dist)) fs.renameSync(dist, old);
fs.renameSync(next, dist);
fs.rmSync(old, { recursive: true, force: true });
console.log(`ces: built dist/ (${cached.stdout.trim()} connector definitions checked and cached)`);
