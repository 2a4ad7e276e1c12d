// What sealing page cursors (AES-256-GCM, src/security/sealed.ts) costs against signing them (HMAC-SHA256, the
// codec before it, bench/cursor-v1.ts), measured in the same run: µs per sign and per verify of each codec, the
// ratio new/old, and the cursor lengths, for
//   - a GitHub link-header next page (api.github.com), and a GitHub Enterprise one with an API version header
//   - a Gong body-paged POST search (the first request's body with Gong's cursor)
//   - a Context Store search cursor (signValue/verifyValue before, sealValue/openValue now)
// Usage: npm run bench:cursor   (writes bench/results/cursor.json)
import os from 'node:os';
import { CursorCodec, type NextRequest } from '../src/connectors/runtime/cursor.ts';
import { openValue, sealValue } from '../src/security/sealed.ts';
import { signValue, verifyValue } from '../src/security/signed.ts';
import { SignedCursorCodec } from './cursor-v1.ts';
import { writeResults } from './lib.ts';

const KEY = Buffer.alloc(32, 9);
const CONNECTOR = '3f2b9c1e-7a4d-4e8b-9c21-5d6f7a8b9c0d';

const EXECUTE: Record<string, { entity: string; action: string; req: NextRequest }> = {
  github_link_header: {
    entity: 'issues',
    action: 'list',
    req: { url: 'https://api.github.com/repositories/1296269/issues?state=all&per_page=100&page=2' },
  },
  github_enterprise_link_header: {
    entity: 'pull_requests',
    action: 'list',
    req: {
      url: 'https://github.corp-example.com/api/v3/repos/payments-team/ledger/pulls?state=open&sort=updated&direction=desc&per_page=50&page=3',
      headers: { 'x-github-api-version': '2022-11-28' },
    },
  },
  gong_body_paged_search: {
    entity: 'calls_extensive',
    action: 'api_search',
    req: {
      url: 'https://us-55616.api.gong.io/v2/calls/extensive',
      body: {
        filter: {
          fromDateTime: '2024-01-01T00:00:00Z',
          toDateTime: '2024-06-30T23:59:59Z',
          workspaceId: '5562739194953732039',
        },
        contentSelector: {
          context: 'Extended',
          exposedFields: { parties: true, content: { brief: true, topics: true, trackers: true } },
        },
        cursor:
          'eyJhbGciOiJIUzI1NiJ9.eyJjYWxsSWQiOjc3ODIzNDI1MjM0NTYzNDIzNDUsInRvdGFsIjozNDV9.dGhpc2lzYXNpZ25hdHVyZQ',
      },
    },
  },
};

/** Median µs per call of `fn` over several timed batches (after a warm-up batch). */
function timeIt(fn: () => void, minMs = 700): number {
  const samples: number[] = [];
  for (let batch = 0; batch < 8; batch++) {
    let n = 0;
    const t0 = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < minMs / 8) {
      fn();
      n++;
      elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
    }
    if (batch > 0) samples.push((elapsed * 1000) / n);
  }
  return +(samples.sort((a, b) => a - b)[3] as number).toFixed(2);
}

const ratio = (now: number, before: number) => +(now / before).toFixed(2);

function compare(
  sign: { old: () => string; new: () => string },
  verify: { old: (c: string) => void; new: (c: string) => void },
) {
  const oldCursor = sign.old();
  const newCursor = sign.new();
  const figures = {
    length: {
      old: oldCursor.length,
      new: newCursor.length,
      ratio: ratio(newCursor.length, oldCursor.length),
    },
    sign_us: { old: timeIt(sign.old), new: timeIt(sign.new) },
    verify_us: { old: timeIt(() => verify.old(oldCursor)), new: timeIt(() => verify.new(newCursor)) },
  };
  return {
    ...figures,
    sign_us: { ...figures.sign_us, ratio: ratio(figures.sign_us.new, figures.sign_us.old) },
    verify_us: { ...figures.verify_us, ratio: ratio(figures.verify_us.new, figures.verify_us.old) },
  };
}

function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadavg_at_start: os.loadavg().map((l) => +l.toFixed(2)),
  };
  const signed = new SignedCursorCodec(KEY);
  const sealed = new CursorCodec(KEY);
  for (const [name, { entity, action, req }] of Object.entries(EXECUTE)) {
    const binding = { connectorId: CONNECTOR, entity, action };
    results[name] = compare(
      { old: () => signed.sign(binding, req), new: () => sealed.sign(binding, req) },
      { old: (c) => signed.verify(binding, c), new: (c) => sealed.verify(binding, c) },
    );
    console.log(name, results[name]);
  }
  // The search cursor as context-store.ts makes it: before, the binding in the signed value; now, beside it.
  const digest = 'q7Vd3rP0o2bm1kS9cYxWzA';
  const binding = JSON.stringify([CONNECTOR, 'issues', `${digest}${'x'.repeat(21)}`]);
  results.context_store_search = compare(
    {
      old: () => signValue(KEY, 'context-store-search.v1', { c: CONNECTOR, e: 'issues', q: digest, o: 200 }),
      new: () => sealValue(KEY, 'context-store-search.v2', { o: 200 }, binding),
    },
    {
      old: (c) => {
        if (!verifyValue(KEY, 'context-store-search.v1', c)) throw new Error('refused');
      },
      new: (c) => {
        if (!openValue(KEY, 'context-store-search.v2', c, binding)) throw new Error('refused');
      },
    },
  );
  console.log('context_store_search', results.context_store_search);
  writeResults('cursor.json', results);
}

main();
