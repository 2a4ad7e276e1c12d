// Runs every *.test.ts under test/ with node:test through tsx, in two passes:
//  1. everything, with the store on SQLite (test/contract and the search compiler's tests run their PostgreSQL
//     halves here too, each on a database of its own);
//  2. every test that runs ces's store through a harness, a server process or the CLI, again with the store on
//     PostgreSQL: a database created for the pass and dropped after it (CES_TEST_DATABASE_URL), on the server
//     CES_TEST_POSTGRES_URL names (default postgres://postgres@127.0.0.1:5432/postgres). Unreachable fails the
//     run. A file that tests the SQLite adapter's own machinery says `ces-test: sqlite-only`; one that makes its
//     own databases says `ces-test: own-database`.
// Extra args filter by path substring (both passes). CES_TEST_STORES=sqlite runs the first pass only.
// ces itself is built first (scripts/build.mjs): server processes the tests start run the build, as `npm start` does.
// The TypeScript SDK's tests (packages/sdk/test) run with the others, after the SDK is built (its README
// examples run against the built package): `npm test -- sdk` runs them alone.
// Node 20 does not expand globs for --test, and `node --test test/` would skip .ts files, so lists are built here.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_DIR, bundled, bundleTests, removeBundles } from './test-bundle.mjs';

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return collect(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const sources = [...collect('test'), ...collect('packages/sdk/test')];
const filters = process.argv.slice(2);
const files = sources
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((needle) => f.includes(needle)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

// The tests that start a server process start it as the README does (bin/ces.js), which runs the build in dist/:
// build it from the sources under test first.
{
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.error('building ces (scripts/build.mjs) failed');
    process.exit(1);
  }
}

if (files.some((f) => f.startsWith('packages/sdk/'))) {
  const built = spawnSync(process.execPath, ['packages/sdk/scripts/build.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.error('building packages/sdk failed');
    process.exit(1);
  }
}

// Each test file runs as its bundle (scripts/test-bundle.mjs says why); CES_TEST_TSX=1 runs the sources through
// tsx instead (no build step; for a look at a failure whose bundle hides something).
const BUNDLED = process.env.CES_TEST_TSX !== '1';
if (BUNDLED) {
  process.on('exit', removeBundles);
  if (!(await bundleTests(files))) {
    console.error(`bundling the test files into ${BUNDLE_DIR}/ (scripts/test-bundle.mjs) failed`);
    process.exit(1);
  }
}

// Files run side by side: most of their time is spent waiting on sockets, child processes and the database, not
// on the CPU (2 cores here). The longest files start first, so none of them begins at the end and holds the run
// open alone; the list is what the slowest-files report (scripts/test-slowest.mjs) shows, over a minute each.
const CONCURRENCY = Number(process.env.CES_TEST_CONCURRENCY || 4);
// The PostgreSQL pass runs as many side by side (CES_TEST_PG_CONCURRENCY to change it): its files share one server
// (100 connections by default) and one database, each harness in a schema of its own.
const PG_CONCURRENCY = Number(process.env.CES_TEST_PG_CONCURRENCY || CONCURRENCY);
const SLOW_FIRST = [
  'test/http/bad-input-params.test.ts',
  'test/contract/postgres.test.ts',
  'test/http/bad-input-corpus.test.ts',
  'test/http/cursor-secrecy.test.ts',
  'test/http/sdk-check.test.ts',
  'test/connectors/definition-suite.test.ts',
  'test/http/metrics.test.ts',
  'test/context-store/search-isolation.test.ts',
  'test/e2e/postgres-processes.test.ts',
];
const slowRank = (f) => {
  const i = SLOW_FIRST.indexOf(f);
  return i === -1 ? SLOW_FIRST.length : i;
};
function slowFirst(list) {
  return [...list].sort((a, b) => slowRank(a) - slowRank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
function run(list, env, concurrency = CONCURRENCY) {
  const result = spawnSync(
    process.execPath,
    [
      ...(BUNDLED ? ['--enable-source-maps'] : ['--import', 'tsx']),
      '--test',
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/test-slowest.mjs',
      '--test-reporter-destination=stderr',
      '--test-timeout=300000',
      `--test-concurrency=${concurrency}`,
      ...slowFirst(list).map((f) => (BUNDLED ? bundled(f) : f)),
    ],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...env } },
  );
  return result.status ?? 1;
}

// The relative imports of each test source, to tell which tests reach the store through the helpers.
const imports = new Map();
for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  const deps = [...text.matchAll(/from '(\.[^']+)'/g)].map((m) => path.join(path.dirname(file), m[1]));
  imports.set(file, { text, deps });
}
const STORE_HELPERS = [
  'test/helpers/harness.ts',
  'test/helpers/server-process.ts',
  'test/helpers/postgres.ts',
];
function reachesStore(file, seen = new Set()) {
  if (STORE_HELPERS.includes(file)) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  return (imports.get(file)?.deps ?? []).some((dep) => reachesStore(dep, seen));
}
const onPostgres = files.filter((f) => {
  if (f.startsWith('test/unit/') || f.startsWith('test/contract/')) return false;
  const { text } = imports.get(f);
  return !/ces-test: (sqlite-only|own-database)/.test(text) && reachesStore(f);
});

let status = run(files, {});
if (process.env.CES_TEST_STORES === 'sqlite' || onPostgres.length === 0) process.exit(status);

const adminUrl = process.env.CES_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `ces_test_run_${randomBytes(4).toString('hex')}`;
const admin = (sql) =>
  spawnSync(
    process.execPath,
    [
      '-e',
      `const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1],connectionTimeoutMillis:5000});
       c.connect().then(()=>c.query(process.argv[2])).then(()=>c.end(),(e)=>{console.error(e.message);process.exit(1)})`,
      adminUrl,
      sql,
    ],
    { stdio: 'inherit' },
  ).status;
console.log(`# PostgreSQL pass: ${onPostgres.length} files on database ${name}`);
if (
  admin(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`) !== 0
) {
  console.error(
    `PostgreSQL is not reachable at ${new URL(adminUrl).host}: start it, or set CES_TEST_POSTGRES_URL ` +
      '(CES_TEST_STORES=sqlite skips this pass).',
  );
  process.exit(1);
}
const url = new URL(adminUrl);
url.pathname = `/${name}`;
try {
  status = run(onPostgres, { CES_TEST_DATABASE_URL: url.toString() }, PG_CONCURRENCY) || status;
} finally {
  admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
process.exit(status);
