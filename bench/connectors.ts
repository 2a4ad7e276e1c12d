// Issue-3 figure: execute `list` on each connector through ces against its fake, beside a bare Node passthrough
// proxy to the same fake, in one run. Usage: npm run bench:connectors [-- --duration 10 --connections 20]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/fakes/github/index.ts';
import {
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_SUBDOMAIN,
} from '../test/fakes/zendesk/index.ts';
import { launch, load, postJson, startCes, stopAll, writeResults } from './lib.ts';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

interface Case {
  slug: string;
  fakeScript: string;
  credentials: Record<string, string>;
  replication_config?: Record<string, unknown>;
  execute: { entity: string; action: string; params: Record<string, unknown> };
  /** The request ces sends upstream for that execute, sent straight through the passthrough proxy. */
  directPath: string;
  directHeaders: Record<string, string>;
}

const zendeskBasic = `Basic ${Buffer.from(`${ZENDESK_FAKE_EMAIL}/token:${ZENDESK_FAKE_API_TOKEN}`).toString('base64')}`;
const CASES: Case[] = [
  {
    slug: 'github',
    fakeScript: 'bench/fake-github.ts',
    credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
    replication_config: { repositories: ['bench/big'] },
    execute: { entity: 'issues', action: 'list', params: { owner: 'bench', repo: 'big', per_page: 30 } },
    directPath: '/repos/bench/big/issues?per_page=30',
    directHeaders: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
  },
  {
    slug: 'zendesk-support',
    fakeScript: 'bench/fake-zendesk.ts',
    credentials: {
      email: ZENDESK_FAKE_EMAIL,
      api_token: ZENDESK_FAKE_API_TOKEN,
      subdomain: ZENDESK_FAKE_SUBDOMAIN,
    },
    execute: { entity: 'tickets', action: 'list', params: { page_size: 30 } },
    directPath: '/api/v2/tickets?page%5Bsize%5D=30',
    directHeaders: { authorization: zendeskBasic },
  },
];

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    duration_s: duration,
    connections,
    note: 'Gong is left out: its definition declares Gong’s documented 3 requests/s, which ces enforces per connector.',
  };
  for (const c of CASES) {
    const fake = await launch(['--import', 'tsx', c.fakeScript]);
    const origin = new URL(fake.url).origin;
    const proxy = await launch(['--import', 'tsx', 'bench/passthrough.ts'], { UPSTREAM: origin });
    const ces = await startCes({ [c.slug]: fake.url });
    const connector = (await postJson(
      ces.base,
      '/api/v1/integrations/connectors',
      {
        workspace_name: 'default',
        connector_type: c.slug,
        credentials: c.credentials,
        ...(c.replication_config ? { replication_config: c.replication_config } : {}),
      },
      ces.token,
    )) as { id: string };
    const probe = (await postJson(
      ces.base,
      `/api/v1/integrations/connectors/${connector.id}/execute`,
      c.execute,
      ces.token,
    )) as { result: unknown[] };
    const direct = await load({
      url: `${proxy.url}${c.directPath}`,
      headers: c.directHeaders,
      duration,
      connections,
    });
    const through = await load({
      url: `${ces.base}/api/v1/integrations/connectors/${connector.id}/execute`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ces.token}` },
      body: JSON.stringify(c.execute),
      duration,
      connections,
    });
    const figure = {
      records_per_page: probe.result.length,
      passthrough: direct,
      ces: through,
      throughput_ratio: +(through.rps / direct.rps).toFixed(3),
      added_mean_ms: +(through.mean_ms - direct.mean_ms).toFixed(3),
    };
    results[c.slug] = figure;
    console.log(c.slug, figure);
    await stopAll();
  }
  writeResults('connectors.json', results);
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
