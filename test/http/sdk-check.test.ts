// The hosted service's Python SDK's health check, `await connector.check()`, replayed byte for byte against every
// connector type ces ships, each on its provider's fake (the definition suite's, test/connectors/<slug>/suite.ts),
// and its answer read the way the SDK reads it.
//
// What the SDK sends (airbyte-agent-sdk: executor/models.py find_check_operation, executor/hosted_executor.py
// check, cloud_utils/client.py execute_connector): the operation its connector model marks preferred_for_check
// (else the first list without required params), with params `{"limit": 1}` for a list, POSTed by httpx's
// AsyncClient with `json=`. httpx puts Host first, then its client defaults (Accept, Accept-Encoding,
// Connection, User-Agent), then the SDK's X-ADP-Agent-SDK and Authorization, then the body's Content-Length
// and Content-Type. httpx >= 0.28 writes JSON compactly; earlier versions (the SDK allows >= 0.24) with
// json.dumps' default ", " and ": " separators. Healthy means no exception: a 2xx whose JSON has `result`
// (_raise_with_body raises on any status >= 400; _parse_execution_result reads response["result"]).
import assert from 'node:assert/strict';
import type net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { providerFor } from '../connectors/suite/providers.ts';
import type { SuiteFake } from '../connectors/suite/types.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { pythonSdkRequest } from '../helpers/python-sdk.ts';
import { exchange, type RawAnswer } from '../helpers/raw-http.ts';

/** Each connector type's check operation, from the SDK's connectors/<name>/connector_model.py (preferred_for_check). */
const CHECKS: Record<string, { entity: string; action: 'list' }> = {
  confluence: { entity: 'spaces', action: 'list' },
  asana: { entity: 'workspaces', action: 'list' },
  github: { entity: 'repositories', action: 'list' },
  gong: { entity: 'users', action: 'list' },
  hubspot: { entity: 'contacts', action: 'list' },
  jira: { entity: 'users', action: 'list' },
  linear: { entity: 'issues', action: 'list' },
  notion: { entity: 'users', action: 'list' },
  slack: { entity: 'users', action: 'list' },
  salesforce: { entity: 'sobjects', action: 'list' },
  stripe: { entity: 'customers', action: 'list' },
  shopify: { entity: 'customers', action: 'list' },
  'zendesk-support': { entity: 'tickets', action: 'list' },
};

/** HostedExecutor.check's verdict on an answer: healthy, or unhealthy with the error text it would report. */
function sdkVerdict(answer: RawAnswer): { status: 'healthy' } | { status: 'unhealthy'; error: string } {
  const text = answer.body.toString('utf8');
  if (answer.status >= 400) return { status: 'unhealthy', error: `HTTP ${answer.status}: ${text}` };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || !('result' in parsed))
      return { status: 'unhealthy', error: `KeyError: 'result' in ${text}` };
    return { status: 'healthy' };
  } catch (err) {
    return { status: 'unhealthy', error: String(err) };
  }
}

describe('the hosted SDK’s check() on every connector type', () => {
  for (const [slug, op] of Object.entries(CHECKS)) {
    describe(slug, () => {
      let h: Harness;
      let fake: SuiteFake;
      let port: number;
      let token: string;
      let connectorId: string;

      before(async () => {
        const provider = await providerFor(slug);
        assert.ok(provider, `no suite provider for ${slug}`);
        const started = await provider.start();
        fake = started.fake;
        h = await startHarness({
          CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ [slug]: null }),
          ...started.env,
          CES_SYNC_ENABLED: 'false',
        });
        token = await h.token();
        const res = await h.inject({
          method: 'POST',
          url: '/api/v1/integrations/connectors',
          token,
          body: { workspace_name: 'default', name: `check-${slug}`, ...started.connector },
        });
        assert.equal(res.status, 200, res.body);
        connectorId = res.json.id;
        await h.app.listen({ host: '127.0.0.1', port: 0 });
        port = (h.app.server.address() as net.AddressInfo).port;
      });

      after(async () => {
        await h?.close();
        await fake?.close();
      });

      for (const spaced of [false, true]) {
        test(`${op.entity}.${op.action} with {"limit": 1} is healthy (${spaced ? 'httpx < 0.28' : 'httpx 0.28'} JSON)`, async () => {
          const before = fake.requests.length;
          const answer = await exchange(
            port,
            pythonSdkRequest(
              port,
              `/api/v1/integrations/connectors/${connectorId}/execute`,
              { entity: op.entity, action: op.action, params: { limit: 1 } },
              { bearer: token, spaced },
            ),
          );
          assert.deepEqual(sdkVerdict(answer), { status: 'healthy' });
          const json = JSON.parse(answer.body.toString('utf8')) as { result: unknown[] };
          assert.ok(Array.isArray(json.result), answer.body.toString());
          assert.ok(json.result.length <= 1, `${json.result.length} records for limit 1`);
          // It really asked the provider (a check that never left ces would prove nothing).
          assert.ok(fake.requests.length > before, 'the provider was not called');
          assert.deepEqual(fake.unhandled, []);
        });
      }
    });
  }
});
