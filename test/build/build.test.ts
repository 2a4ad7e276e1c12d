// The build that `npm start` and bin/ces.js run (scripts/build.mjs; npm test makes it before the tests): its
// source maps lead back to src/, and bin/ces.js turns them on, so stack traces name src/ lines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the build', () => {
  it('maps a function of the bundle back to its line in src/', () => {
    // A child process: importing the bundle runs ces (here its `help`, quietly).
    const script = `
      import { readFileSync } from 'node:fs';
      import { findSourceMap } from 'node:module';
      process.setSourceMapsEnabled(true);
      process.argv = [process.argv[0], 'ces', 'help'];
      const exit = process.exit;
      process.exit = () => {};
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = () => true;
      await import('./dist/main.js');
      process.stdout.write = write;
      const file = ${JSON.stringify(path.join(ROOT, 'dist/main.js'))};
      const lines = readFileSync(file, 'utf8').split('\\n');
      const line = lines.findIndex((l) => l.includes('function loadConfig('));
      const entry = findSourceMap(file).findEntry(line, lines[line].indexOf('function loadConfig('));
      console.log(JSON.stringify({ source: entry.originalSource, line: entry.originalLine + 1 }));
      exit(0);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const { source, line } = JSON.parse(run.stdout) as { source: string; line: number };
    assert.ok(source.endsWith('/src/config/index.ts'), source);
    const text = readFileSync(path.join(ROOT, 'src/config/index.ts'), 'utf8').split('\n');
    assert.match(text[line - 1] ?? '', /export function loadConfig\(/);
  });

  it('bin/ces.js turns source maps on before loading the build', () => {
    const script = `
      process.argv = [process.argv[0], 'ces', 'help'];
      const exit = process.exit;
      process.exit = () => {};
      process.stdout.write = () => true;
      await import(${JSON.stringify(path.join(ROOT, 'bin/ces.js'))});
      console.error(JSON.stringify({ maps: process.sourceMapsEnabled }));
      exit(0);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stderr.trim()), { maps: true });
  });

  it('bin/ces.js runs ces', () => {
    const help = spawnSync(process.execPath, [path.join(ROOT, 'bin/ces.js'), 'help'], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /serve/);
  });
});
