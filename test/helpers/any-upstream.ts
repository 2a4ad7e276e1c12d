import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import { type RecordingServer, startRecordingServer } from '../connectors/kit/server.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * Credentials and replication_config that pass each definition's shape checks, for connectors whose upstream is
 * the catch-all server below. No value here is a real credential.
 */
const CONNECTOR_INPUT: Record<string, { credentials: unknown; replication_config?: unknown }> = {
  github: {
    credentials: { personal_access_token: 'ghp_fuzz_not_a_real_token' },
    replication_config: { repositories: ['fuzz/repo'] },
  },
  'zendesk-support': {
    credentials: { email: 'fuzz@example.com', api_token: 'zd-fuzz-not-real', subdomain: 'fuzz' },
  },
  gong: { credentials: { access_key: 'fuzz-key', access_key_secret: 'fuzz-secret-not-real' } },
  slack: { credentials: { bot_token: 'xoxb-fuzz-not-a-real-token' } },
  jira: { credentials: { email: 'fuzz@example.com', api_token: 'jira-fuzz-not-real', subdomain: 'fuzz' } },
  linear: { credentials: { api_key: 'lin_api_fuzz_not_a_real_key' } },
  hubspot: { credentials: { access_token: 'pat-na1-fuzz-not-a-real-token' } },
  stripe: { credentials: { api_key: 'sk_test_fuzz_not_a_real_key' } },
  notion: { credentials: { token: 'ntn_fuzz_not_a_real_token' } },
  gmail: {
    credentials: {
      access_token: 'ya29.fuzz-not-a-real-token',
      refresh_token: '1//0fuzz-not-a-real-refresh-token',
      client_id: 'fuzz.apps.googleusercontent.com',
      client_secret: 'GOCSPX-fuzz-not-real',
    },
  },
  'google-drive': {
    credentials: {
      access_token: 'ya29.fuzz-not-a-real-token',
      refresh_token: '1//0fuzz-not-a-real-refresh-token',
      client_id: 'fuzz.apps.googleusercontent.com',
      client_secret: 'GOCSPX-fuzz-not-real',
    },
  },
  confluence: {
    credentials: { email: 'fuzz@example.com', api_token: 'confluence-fuzz-not-real', subdomain: 'fuzz' },
  },
  asana: { credentials: { personal_access_token: '2/1/2:fuzz_not_a_real_token' } },
  salesforce: {
    credentials: {
      access_token: '00Dfuzz!not-a-real-token',
      refresh_token: '5Aep861fuzz-not-a-real-refresh-token',
      client_id: 'fuzz-consumer-key',
      client_secret: 'fuzz-consumer-secret-not-real',
    },
  },
  shopify: {
    credentials: { api_key: 'shpat_fuzz_not_a_real_token' },
    replication_config: { shop: 'fuzz' },
  },
};

export interface AnyUpstreamHarness {
  h: Harness;
  upstream: RecordingServer;
  token: string;
  /** One connector per definition, by slug. */
  connectors: Map<string, string>;
  close(): Promise<void>;
}

/**
 * A harness whose every connector type points at one catch-all upstream (a real node:http server answering every
 * request 200 `{}`), with a connector of every definition. It follows no provider: it exists so that what ces
 * does with a client's input can be exercised on every entity and action without a provider's fake deciding
 * which requests are valid. `env` adds to the harness's configuration.
 */
export async function startWithAnyUpstream(env: Record<string, string> = {}): Promise<AnyUpstreamHarness> {
  const upstream = await startRecordingServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  let h: Harness | undefined;
  try {
    const slugs = DefinitionRegistry.default()
      .all()
      .map((d) => d.slug);
    const overrides = Object.fromEntries(slugs.map((slug) => [slug, upstream.origin]));
    // What ces does with input is under test, not the providers' request rates: no proactive limits.
    const unlimited = Object.fromEntries(slugs.map((slug) => [slug, null]));
    h = await startHarness({
      CES_UPSTREAM_OVERRIDES: JSON.stringify(overrides),
      CES_RATE_LIMIT_OVERRIDES: JSON.stringify(unlimited),
      ...env,
    });
    const token = await h.token();
    const connectors = new Map<string, string>();
    for (const def of h.deps.registry.all()) {
      const input = CONNECTOR_INPUT[def.slug];
      if (!input) throw new Error(`no test connector input for the ${def.slug} definition; add one here`);
      const res = await h.inject({
        method: 'POST',
        url: '/api/v1/integrations/connectors',
        token,
        body: { workspace_name: 'default', definition_id: def.id, name: `fuzz ${def.slug}`, ...input },
      });
      if (res.status !== 200)
        throw new Error(`creating the ${def.slug} connector: ${res.status} ${res.body}`);
      connectors.set(def.slug, res.json.id);
    }
    const harness = h;
    return {
      h: harness,
      upstream,
      token,
      connectors,
      close: async () => {
        await harness.close();
        await upstream.close();
      },
    };
  } catch (err) {
    await h?.close();
    await upstream.close();
    throw err;
  }
}
