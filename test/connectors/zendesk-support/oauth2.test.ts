// Zendesk's "OAuth2.0 with refresh" option against a stand-in for Zendesk's token endpoint, shaped after
// https://developer.zendesk.com/api-reference/ticketing/oauth/grant_type_tokens/ (POST /oauth/tokens, JSON body
// with grant_type, refresh_token, client_id and client_secret; the answer carries a new access token AND a new
// refresh token, and the old pair is revoked).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveCredentials } from '../../../src/connectors/credentials.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { refreshSettings, tokenTarget } from '../../../src/connectors/runtime/oauth2.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { json, runtime, startServer } from '../../unit/connectors/helpers.ts';

const zendesk = DefinitionRegistry.default().bySlug('zendesk-support')!;
const option = zendesk.credential_options.find((o) => o.title === 'OAuth2.0 with refresh')!;

describe('Zendesk OAuth2.0 with refresh', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;
  let current = { access: 'zd-at-0', refresh: 'zd-rt-0' };
  let n = 0;

  before(async () => {
    server = await startServer((req, res) => {
      if (req.method === 'POST' && req.url === '/oauth/tokens') {
        const body = JSON.parse(req.body) as Record<string, string>;
        if (
          body.refresh_token !== current.refresh ||
          body.client_id !== 'ces_app' ||
          body.client_secret !== 'shh'
        )
          return json(res, 400, {
            error: 'invalid_grant',
            error_description: 'The provided grant is invalid.',
          });
        n++;
        current = { access: `zd-at-${n}`, refresh: `zd-rt-${n}` };
        return json(res, 200, {
          access_token: current.access,
          refresh_token: current.refresh,
          token_type: 'bearer',
          scope: 'read',
          expires_in: 172_799,
          refresh_token_expires_in: 7_775_999,
        });
      }
      if (req.headers.authorization !== `Bearer ${current.access}`)
        return json(res, 401, { error: "Couldn't authenticate you" });
      if (req.url === '/api/v2/users/me') return json(res, 200, { user: { id: 1, name: 'Avery Admin' } });
      if (req.url.startsWith('/api/v2/groups'))
        return json(res, 200, { groups: [{ id: 7 }], meta: {}, links: {} });
      return json(res, 404, { error: 'RecordNotFound' });
    });
    rt = runtime({ 'zendesk-support': `${server.url}/api/v2` });
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  it('is chosen by its keys, and its token URL is on the account subdomain', () => {
    const resolved = resolveCredentials(zendesk, {
      refresh_token: 'r',
      client_id: 'ces_app',
      client_secret: 'shh',
      subdomain: 'acme',
    });
    assert.equal(resolved.option, 'OAuth2.0 with refresh');
    // Without client credentials the keys still name the plain OAuth2.0 option.
    assert.equal(resolveCredentials(zendesk, { access_token: 'a', refresh_token: 'r' }).option, 'OAuth2.0');
    const target = tokenTarget(zendesk, refreshSettings(option.refresh!), {}, {}, resolved);
    assert.equal(target.url.href, 'https://acme.zendesk.com/oauth/tokens');
    assert.equal(target.guarded, true);
  });

  it('the check renews a missing access token with a JSON refresh request; a 401 renews it again', async () => {
    const creds = resolveCredentials(zendesk, {
      refresh_token: 'zd-rt-0',
      client_id: 'ces_app',
      client_secret: 'shh',
      subdomain: 'acme',
    });
    const checked = await rt.checkCredentials(zendesk, creds, {});
    assert.equal(checked.values.access_token, 'zd-at-1');
    assert.equal(checked.values.refresh_token, 'zd-rt-1');
    const tokenReq = server.seen.find((r) => r.url === '/oauth/tokens')!;
    assert.equal(tokenReq.headers['content-type'], 'application/json');
    assert.equal(tokenReq.headers.authorization, undefined);
    assert.deepEqual(JSON.parse(tokenReq.body), {
      grant_type: 'refresh_token',
      refresh_token: 'zd-rt-0',
      client_id: 'ces_app',
      client_secret: 'shh',
    });

    // Zendesk revoked the access token early: the 401 leads to one refresh with the rotated refresh token.
    current = { ...current, access: 'revoked' };
    server.seen.length = 0;
    const out = await rt.execute({
      connectorId: 'zd1',
      definition: zendesk,
      credentials: checked,
      config: {},
      entity: 'groups',
      action: 'list',
      params: {},
    });
    assert.deepEqual(parseRecords(out.payload), [{ id: 7 }]);
    assert.deepEqual(
      server.seen.map((r) => `${r.method} ${r.url.split('?')[0]}`),
      ['GET /api/v2/groups', 'POST /oauth/tokens', 'GET /api/v2/groups'],
    );
    assert.equal(JSON.parse(server.seen[1]!.body).refresh_token, 'zd-rt-1');
  });
});
