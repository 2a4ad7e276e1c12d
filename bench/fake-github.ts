// Starts the GitHub fake in its own process for benchmarks and prints its URL as one JSON line.
import { startGithubFake } from '../test/fakes/github/index.ts';

const fake = await startGithubFake();
fake.seedIssues('bench', 'big', Number(process.env.BENCH_ISSUES ?? 1000));
if (process.env.BENCH_ARCHIVE_BYTES) fake.setArchiveSize(Number(process.env.BENCH_ARCHIVE_BYTES));
process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
