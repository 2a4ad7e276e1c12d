// Builds the SDK into packages/sdk/dist with the root's TypeScript (7, native: about ten times faster here
// than the workspace's TypeScript 5.9, which is there only for openapi-typescript). Run by the root's
// `prepare` (so `npm ci` leaves the SDK built), `npm run sdk:build`, and `npm test` before the SDK's tests.
// `--skip-without-typescript`: an install without dev dependencies (no TypeScript) skips the build instead of failing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.resolve(sdk, '../../node_modules/typescript/bin/tsc');
if (!fs.existsSync(tsc)) {
  if (process.argv.includes('--skip-without-typescript')) {
    console.log('@ces/sdk: TypeScript is not installed (no dev dependencies); the SDK is not built');
    process.exit(0);
  }
  console.error(`@ces/sdk: ${tsc} is missing: run npm ci`);
  process.exit(1);
}
fs.rmSync(path.join(sdk, 'dist'), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(sdk, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
