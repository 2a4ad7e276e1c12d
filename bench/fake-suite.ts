// Starts one connector's suite fake (test/connectors/<slug>/suite.ts) in its own process for benchmarks: writes
// to the file BENCH_OUT its URL, the ces environment that points the connector type at it, the body that creates
// a connector on it and the happy params of its suite cases, then prints `{"url": ...}` as one line.
// Usage: BENCH_OUT=/tmp/x.json node --import tsx bench/fake-suite.ts <slug>
import fs from 'node:fs';
import { providerFor } from '../test/connectors/suite/providers.ts';

const slug = process.argv[2] ?? '';
const provider = await providerFor(slug);
if (provider === undefined) throw new Error(`no test/connectors/${slug}/suite.ts`);
const started = await provider.start();
const happy = Object.fromEntries(Object.entries(started.cases).map(([key, c]) => [key, c.happy]));
const overrides = JSON.parse(started.env.CES_UPSTREAM_OVERRIDES ?? '{}') as Record<string, string>;
const url = overrides[slug];
if (url === undefined) throw new Error(`the ${slug} suite sets no upstream override`);
fs.writeFileSync(
  process.env.BENCH_OUT ?? '',
  JSON.stringify({ url, env: started.env, connector: started.connector, happy }),
);
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.on('SIGTERM', () => void started.fake.close().then(() => process.exit(0)));
