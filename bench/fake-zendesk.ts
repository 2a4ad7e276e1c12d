// Starts the Zendesk Support fake in its own process for benchmarks and prints its URL as one JSON line.
import { startZendeskFake } from '../test/fakes/zendesk/index.ts';

const fake = await startZendeskFake();
fake.seedTickets(Number(process.env.BENCH_TICKETS ?? 300));
process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
