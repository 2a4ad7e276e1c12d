// The README's examples, so they cannot rot: every ```ts example=NAME block is written to a file, type-checked
// against the built package (as a project using @ces/sdk would see it), and run in order with tsx against the
// real server process and the GitHub fake; each one's output is checked below. The first block (connect)
// is a whole program; the others continue it, so they get its `ces` and the created connector's id.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../../../../test/connectors/github/fake/index.ts';
import { type SearchFields, searchQuery } from '../../src/index.ts';
import type { E2e } from './context.ts';

const SDK = path.resolve(import.meta.dirname, '../..');
const ROOT = path.resolve(SDK, '../..');
const DIR = path.join(SDK, '.examples');
const PRELUDE = `import * as sdk from '@ces/sdk';
const ces = new sdk.Ces({
  baseUrl: process.env.CES_URL!,
  clientId: process.env.CES_CLIENT_ID!,
  clientSecret: process.env.CES_CLIENT_SECRET!,
});
const connectorId = process.env.CES_CONNECTOR_ID!;
`;

const examples = [
  ...fs.readFileSync(path.join(SDK, 'README.md'), 'utf8').matchAll(/^```ts example=(\S+)\n([\s\S]*?)^```$/gm),
].map((m) => ({ name: m[1]!, code: m[2]! }));

/**
 * Runs node in DIR, asynchronously: the GitHub fake answers from this process (for the examples and for the
 * server's background syncs), so it must never be blocked meanwhile.
 */
function runNode(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: DIR, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 90_000 },
      (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

export function readmeSuite(e2e: E2e) {
  /** The examples' environment; `connect` adds the id of the connector it created. */
  const env: Record<string, string> = {};
  const ces = () => e2e.ces;

  /** What each example must print (and leave behind); an example without a check fails the test. */
  const checks: Record<string, (out: string) => void | Promise<void>> = {
    connect(out) {
      const match = /^([0-9a-f-]{36}) (Loading|Building Preview|Preview|Ready)$/m.exec(out);
      assert.ok(match, out);
      env.CES_CONNECTOR_ID = match[1]!;
    },
    pages(out) {
      assert.match(out, /^25 issues in 3 pages by hubot, octocat$/m);
    },
    errors(out) {
      assert.deepEqual(out.trim().split('\n').slice(0, 2), [
        '404 CONNECTOR_NOT_FOUND',
        'UNKNOWN_ENTITY entity',
      ]);
      assert.match(out, /^422 req_\S+$/m);
    },
    download(out) {
      const match = /^(ces-demo-widgets-[0-9a-f]+\.tar\.gz) application\/x-gzip (\d+)$/m.exec(out);
      assert.ok(match, out);
      const file = fs.readFileSync(path.join(DIR, match[1]!));
      assert.equal(file.length, Number(match[2]));
      assert.deepEqual([...file.subarray(0, 2)], [0x1f, 0x8b]);
    },
    async search(out) {
      const lines = out.trim().split('\n');
      const filter = searchQuery<SearchFields['github']['issues']>()
        .where('state')
        .eq('open')
        .and('created_at')
        .gte('2024-01-01T00:00:00.000Z')
        .or((f) => [f('labels').any((l) => l('name').eq('bug')), f('title').fuzzy('widget')]).filter;
      assert.equal(lines[0], JSON.stringify(filter));
      const expected = await ces().search(env.CES_CONNECTOR_ID!, 'issues', { filter }, { limit: 10 });
      assert.ok(expected.result.length > 0, 'the example finds something');
      assert.equal(lines.length - 2, expected.result.length, out);
      let open = 0;
      for await (const _ of ces().records(env.CES_CONNECTOR_ID!, {
        entity: 'issues',
        action: 'list',
        params: { owner: 'ces-demo', repo: 'widgets', state: 'open' },
      }))
        open += 1;
      assert.equal(lines.at(-1), `${open} open issues and pull requests`);
    },
    scoped(out) {
      const lines = out.trim().split('\n');
      assert.deepEqual(lines.slice(0, 2), ['0', '0']);
      assert.ok(lines.includes('customer-42 active') && lines.includes('default active'), out);
    },
    api(out) {
      assert.equal(out.trim(), 'Ready');
    },
  };

  describe('the README examples', () => {
    test('the README has the examples this test checks, and only those', () => {
      assert.deepEqual(examples.map((e) => e.name).sort(), Object.keys(checks).sort());
      assert.equal(examples[0]?.name, 'connect');
    });

    test("the README's examples type-check against the built package", async () => {
      assert.ok(
        fs.existsSync(path.join(SDK, 'dist/index.d.ts')),
        'packages/sdk/dist is missing: npm run sdk:build (npm test builds it)',
      );
      fs.rmSync(DIR, { recursive: true, force: true });
      fs.mkdirSync(DIR);
      examples.forEach(({ name, code }, i) => {
        const text = name === 'connect' ? code : `${PRELUDE}\n${code}`;
        fs.writeFileSync(path.join(DIR, `${i + 1}-${name}.ts`), text);
      });
      const tsconfig = {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          types: ['node'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        include: ['*.ts'],
      };
      fs.writeFileSync(path.join(DIR, 'tsconfig.json'), JSON.stringify(tsconfig));
      const tsc = await runNode([path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', DIR]);
      assert.equal(tsc.code, 0, tsc.stdout + tsc.stderr);
    });

    for (const [i, { name }] of examples.entries()) {
      test(`README example ${name} runs and prints what it says`, async (t) => {
        env.CES_URL = e2e.server.url;
        env.CES_CLIENT_ID = e2e.credentials.clientId;
        env.CES_CLIENT_SECRET = e2e.credentials.clientSecret;
        env.GITHUB_TOKEN = GITHUB_FAKE_DEFAULT_TOKEN;
        const run = await runNode(['--import', 'tsx', path.join(DIR, `${i + 1}-${name}.ts`)], env);
        assert.equal(run.code, 0, `${name} failed:\n${run.stdout}\n${run.stderr}`);
        for (const line of run.stdout.trim().split('\n')) t.diagnostic(line);
        const check = checks[name];
        assert.ok(check, `no check for example ${name}`);
        await check(run.stdout);
      });
    }
  });
}
