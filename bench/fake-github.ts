// Starts the GitHub fake in its own process for benchmarks and prints its URL as one JSON line.
// BENCH_UPSTREAM_LATENCY_MS delays every answer, like a provider across the internet.
import { startGithubFake } from '../test/connectors/github/fake/index.ts';

const fake = await startGithubFake({ responseDelayMs: Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 0) });
fake.seedIssues('bench', 'big', Number(process.env.BENCH_ISSUES ?? 1000));
if (process.env.BENCH_ARCHIVE_BYTES) fake.setArchiveSize(Number(process.env.BENCH_ARCHIVE_BYTES));
process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
