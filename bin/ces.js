#!/usr/bin/env node
// Runs ces: the JavaScript compiled into dist/ (by `npm ci` through `prepare`, or `npm run build`), with source
// maps on so stack traces name src/ lines. A checkout that was never built (no dist/main.js) runs the TypeScript
// sources through tsx instead, as `npm run ces` and `npm run dev` always do.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/main.js', import.meta.url);
if (existsSync(compiled)) {
  process.setSourceMapsEnabled(true);
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
