// Starts the Zendesk Support fake in its own process for benchmarks and prints its URL as one JSON line.
// BENCH_UPSTREAM_LATENCY_MS delays every answer, like a provider across the internet.
import { startZendeskFake } from '../test/connectors/zendesk-support/fake/index.ts';

const fake = await startZendeskFake({ responseDelayMs: Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 0) });
fake.seedTickets(Number(process.env.BENCH_TICKETS ?? 300));
process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
