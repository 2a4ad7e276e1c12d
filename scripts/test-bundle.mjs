// Bundles the test files for `npm test` (scripts/test.mjs): each file, with ces's sources and their dependencies,
// becomes an ES module under .test-build/ (same path, `.mjs`), their shared code split into chunks. Node 20 runs
// a test file that imports the sources through tsx by resolving, transforming and compiling some 1,500 modules
// one by one, through a loader thread: about 3.4 s of CPU before its first test (test/http/workspaces.test.ts,
// measured), 1.5 s bundled; ~275 files a run on two cores.
// What a bundle must not change for the code it holds:
//  - `import.meta.url`, `.dirname` and `.filename` of each source module stay its own (its .ts file's), so data
//    files beside the sources are found and code that asks whether it runs from TypeScript gets the same answer
//    (its worker threads then register tsx themselves: src/store/sqlite/context-writer.ts);
//  - CommonJS dependencies that find their files through `__dirname` get their installed directory;
//  - native and tool packages stay outside (loaded from node_modules, as before): better-sqlite3, pg-native,
//    esbuild, tsx, playwright-core.
// Source maps point stack traces at the .ts lines (`--enable-source-maps`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Bundles live in .test-build/<pid>/, one directory per run, removed when it ends: runs side by side in one
 * checkout (a full one and a targeted one) never read each other's.
 */
export const BUNDLES = '.test-build';
export const BUNDLE_DIR = path.join(BUNDLES, String(process.pid));

/** The bundle of a test file (a path from the root), as a path from the root. */
export function bundled(file) {
  return path.join(BUNDLE_DIR, file.replace(/\.ts$/, '.mjs'));
}

/** The test file a bundle (or a path printed for it) stands for, whichever run made it. */
export function unbundled(file) {
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  const [top, run, ...rest] = rel.split(path.sep);
  return top === BUNDLES && /^\d+$/.test(run ?? '') ? rest.join(path.sep).replace(/\.mjs$/, '.ts') : rel;
}

/** Removes this run's bundles, and those of runs that ended without removing theirs. */
export function removeBundles() {
  const all = path.join(root, BUNDLES);
  if (!fs.existsSync(all)) return;
  for (const name of fs.readdirSync(all)) {
    const pid = Number(name);
    if (pid === process.pid || !Number.isInteger(pid) || !alive(pid))
      fs.rmSync(path.join(all, name), { recursive: true, force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * Each module's own `import.meta` values, bound in the module: esbuild's `define` (below) turns the expressions
 * (never text in strings) into references to this binding, and a module that may hold them gets it first.
 */
const ownPlaces = {
  name: 'own-places',
  setup(build) {
    build.onLoad({ filter: /\.(c|m)?[jt]s$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      const dependency = /[\\/]node_modules[\\/]/.test(args.path);
      const own = [];
      if (text.includes('import.meta')) {
        const meta = {
          url: pathToFileURL(args.path).href,
          dirname: path.dirname(args.path),
          filename: args.path,
        };
        own.push(`const __ownMeta = ${JSON.stringify(meta)};`);
      }
      // CommonJS dependencies that find their own files: their installed place.
      if (dependency && /\b__(dirname|filename)\b/.test(text)) {
        own.push(
          `var __filename = ${JSON.stringify(args.path)}, __dirname = ${JSON.stringify(path.dirname(args.path))};`,
        );
      }
      if (own.length === 0) return undefined;
      const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : '';
      return {
        contents: `${shebang}${own.join(' ')}\n${text.slice(shebang.length)}`,
        loader: args.path.endsWith('ts') ? 'ts' : 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/** Bundles `files` (paths from the root); false when esbuild failed (it printed why). */
export async function bundleTests(files) {
  const esbuild = await import('esbuild');
  removeBundles();
  const out = path.join(root, BUNDLE_DIR);
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: files,
      outdir: out,
      outbase: '.',
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      sourcesContent: false,
      external: ['better-sqlite3', 'pg-native', 'esbuild', 'tsx', 'playwright-core'],
      banner: {
        js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      },
      define: {
        'import.meta.url': '__ownMeta.url',
        'import.meta.dirname': '__ownMeta.dirname',
        'import.meta.filename': '__ownMeta.filename',
      },
      plugins: [ownPlaces],
      logLevel: 'warning',
    });
    return true;
  } catch {
    return false;
  }
}
