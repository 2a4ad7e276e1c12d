// The store contract: an organization's OAuth apps (see store-contract.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { OAuthAppWithSecret } from '../../src/store/port.ts';
import { creds, freshStore, newOrg, type OpenedStore, T0, T1 } from './fixtures.ts';

const app = (organizationId: string, fields: Partial<OAuthAppWithSecret> = {}): OAuthAppWithSecret => ({
  id: randomUUID(),
  organization_id: organizationId,
  definition_id: 'def-hubspot',
  client_id: 'client-1',
  secret: creds(),
  created_at: T0,
  updated_at: T0,
  ...fields,
});

export function oauthAppsContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: OAuth apps`, () => {
    const s = freshStore(open);

    it('put creates one per organization and connector type; a second put replaces its client, keeping id and created_at', async () => {
      const org = await newOrg(s());
      const first = app(org);
      const made = await s().oauthApps.put(first);
      assert.deepEqual(made, {
        id: first.id,
        organization_id: org,
        definition_id: 'def-hubspot',
        client_id: 'client-1',
        created_at: T0,
        updated_at: T0,
      });
      assert.equal(JSON.stringify(made).includes(first.secret.ciphertext), false, 'put answers no secret');
      const secret = creds('key-2');
      const again = await s().oauthApps.put(
        app(org, { client_id: 'client-2', secret, created_at: T1, updated_at: T1 }),
      );
      assert.equal(again.id, first.id);
      assert.equal(again.created_at, T0);
      assert.equal(again.updated_at, T1);
      assert.deepEqual(await s().oauthApps.get(org, 'def-hubspot'), { ...again, secret });
    });

    it('get and delete are per organization; delete says whether there was one', async () => {
      const org = await newOrg(s());
      const other = await newOrg(s());
      await s().oauthApps.put(app(org));
      assert.equal(await s().oauthApps.get(other, 'def-hubspot'), undefined);
      assert.equal(await s().oauthApps.get(org, 'def-notion'), undefined);
      assert.equal(await s().oauthApps.delete(other, 'def-hubspot'), false);
      assert.equal(await s().oauthApps.delete(org, 'def-hubspot'), true);
      assert.equal(await s().oauthApps.delete(org, 'def-hubspot'), false);
      assert.equal(await s().oauthApps.get(org, 'def-hubspot'), undefined);
    });

    it('the rotation sweep lists every secret and replaces one by id', async () => {
      const a = app(await newOrg(s()));
      const b = app(await newOrg(s()), { definition_id: 'def-notion' });
      await s().oauthApps.put(a);
      await s().oauthApps.put(b);
      const rows = await s().oauthApps.listForRotation();
      assert.deepEqual(
        rows.map((r) => [r.id, r.ciphertext]).sort(),
        [
          [a.id, a.secret.ciphertext],
          [b.id, b.secret.ciphertext],
        ].sort(),
      );
      const next = creds('key-3');
      await s().oauthApps.replaceSecretForRotation(a.id, next);
      assert.deepEqual((await s().oauthApps.get(a.organization_id, a.definition_id))?.secret, next);
      assert.deepEqual((await s().oauthApps.get(b.organization_id, b.definition_id))?.secret, b.secret);
    });
  });
}
