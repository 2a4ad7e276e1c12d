// The store contract: consent-flow states and applications' redirect URLs (see store-contract.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { OAuthState } from '../../src/store/port.ts';
import {
  creds,
  freshStore,
  newApplication,
  newOrg,
  newWorkspace,
  type OpenedStore,
  T0,
  T1,
  T2,
} from './fixtures.ts';

export function consentContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: consent flows`, () => {
    const s = freshStore(open);

    async function state(fields: Partial<OAuthState> = {}): Promise<OAuthState> {
      const row = await stateRow(fields);
      await s().oauthStates.create(row);
      return row;
    }

    async function stateRow(fields: Partial<OAuthState> = {}): Promise<OAuthState> {
      const org = fields.organization_id ?? (await newOrg(s()));
      const ws = fields.workspace_id ?? (await newWorkspace(s(), org, `ws-${randomUUID()}`)).id;
      return {
        id: randomUUID(),
        organization_id: org,
        application_id: randomUUID(),
        workspace_id: ws,
        widget_token_id: null,
        definition_id: 'def-hubspot',
        option_title: 'OAuth2.0',
        redirect_url: 'https://app.example.com/done',
        request: '{"name":"x"}',
        verifier: creds(),
        created_at: T0,
        expires_at: T1,
        used_at: null,
        ...fields,
      };
    }

    const consumable = async (row: OAuthState) =>
      (await s().oauthStates.consume(row.organization_id, row.id, T0)) !== undefined;

    it('consume answers the state once, marked used, with its encrypted verifier', async () => {
      const row = await state();
      const got = await s().oauthStates.consume(row.organization_id, row.id, T0);
      assert.deepEqual(got, { ...row, used_at: T0 });
      assert.equal(await s().oauthStates.consume(row.organization_id, row.id, T0), undefined);
    });

    it('a state without a verifier comes back with null', async () => {
      const row = await state({ verifier: null });
      assert.equal((await s().oauthStates.consume(row.organization_id, row.id, T0))?.verifier, null);
    });

    it('consume refuses an expired state, and one of another organization', async () => {
      const row = await state();
      const other = await newOrg(s());
      assert.equal(await s().oauthStates.consume(other, row.id, T0), undefined);
      assert.equal(
        await s().oauthStates.consume(row.organization_id, row.id, T1),
        undefined,
        'expires_at is exclusive',
      );
      assert.equal(await s().oauthStates.consume(row.organization_id, row.id, T2), undefined);
    });

    it('of ten racing consumes exactly one gets the state', async () => {
      const row = await state();
      const got = await Promise.all(
        Array.from({ length: 10 }, () => s().oauthStates.consume(row.organization_id, row.id, T0)),
      );
      assert.equal(got.filter((g) => g !== undefined).length, 1);
    });

    it('deleteExpired removes only states expired before the time given', async () => {
      const old = await state({ expires_at: T0 });
      const live = await state({ expires_at: T2 });
      assert.equal(await s().oauthStates.deleteExpired(T1), 1);
      assert.equal(
        await s().oauthStates.consume(old.organization_id, old.id, '2023-01-01T00:00:00.000Z'),
        undefined,
      );
      assert.notEqual(await s().oauthStates.consume(live.organization_id, live.id, T1), undefined);
    });

    it('createWithinCaps stores up to the cap of open states per workspace and per widget token', async () => {
      const org = await newOrg(s());
      const ws = (await newWorkspace(s(), org, 'capped')).id;
      const caps = { perWorkspace: 3, perWidgetToken: 2 };
      const row = (fields: Partial<OAuthState>) =>
        stateRow({ organization_id: org, workspace_id: ws, ...fields });

      const first = await row({ widget_token_id: 'tok-a', expires_at: T2 });
      assert.deepEqual(await s().oauthStates.createWithinCaps(first, caps, T0), { created: true });
      assert.ok(await consumable(first), 'a state stored within the caps is a state like any other');
      // Used: no longer open, so it counts for neither cap.
      const a1 = await row({ widget_token_id: 'tok-a', expires_at: T2 });
      const a2 = await row({ widget_token_id: 'tok-a', expires_at: T1 });
      for (const r of [a1, a2])
        assert.equal((await s().oauthStates.createWithinCaps(r, caps, T0)).created, true);
      const a3 = await row({ widget_token_id: 'tok-a' });
      assert.deepEqual(await s().oauthStates.createWithinCaps(a3, caps, T0), {
        created: false,
        cap: 'widget_token',
        limit: 2,
        freesAt: T1,
      });
      assert.equal(await consumable(a3), false, 'a refused state is not stored');

      // Another token of the workspace has room of its own, up to the workspace's cap.
      const b1 = await row({ widget_token_id: 'tok-b', expires_at: T2 });
      assert.equal((await s().oauthStates.createWithinCaps(b1, caps, T0)).created, true);
      const api = await row({ widget_token_id: null });
      assert.deepEqual(await s().oauthStates.createWithinCaps(api, caps, T0), {
        created: false,
        cap: 'workspace',
        limit: 3,
        freesAt: T1,
      });
      // Another workspace of the organization, and 0 (no cap), are not held back.
      const elsewhere = await stateRow({ organization_id: org, widget_token_id: 'tok-a' });
      assert.equal(
        (await s().oauthStates.createWithinCaps(elsewhere, { perWorkspace: 3, perWidgetToken: 0 }, T0))
          .created,
        true,
      );
      assert.equal(
        (await s().oauthStates.createWithinCaps(api, { perWorkspace: 0, perWidgetToken: 0 }, T0)).created,
        true,
      );
    });

    it('createWithinCaps does not count expired states', async () => {
      const org = await newOrg(s());
      const ws = (await newWorkspace(s(), org, 'expiring')).id;
      const caps = { perWorkspace: 1, perWidgetToken: 1 };
      const old = await stateRow({
        organization_id: org,
        workspace_id: ws,
        widget_token_id: 't',
        expires_at: T1,
      });
      assert.equal((await s().oauthStates.createWithinCaps(old, caps, T0)).created, true);
      const next = await stateRow({
        organization_id: org,
        workspace_id: ws,
        widget_token_id: 't',
        expires_at: T2,
      });
      assert.equal((await s().oauthStates.createWithinCaps(next, caps, T0)).created, false);
      // At T1 the first one has expired (expires_at is exclusive, as for consume).
      assert.equal((await s().oauthStates.createWithinCaps(next, caps, T1)).created, true);
    });

    it('of ten racing createWithinCaps for one workspace, exactly the cap get stored', async () => {
      const org = await newOrg(s());
      const ws = (await newWorkspace(s(), org, 'racing')).id;
      const rows = await Promise.all(
        Array.from({ length: 10 }, () =>
          stateRow({ organization_id: org, workspace_id: ws, widget_token_id: 't' }),
        ),
      );
      const got = await Promise.all(
        rows.map((r) => s().oauthStates.createWithinCaps(r, { perWorkspace: 10, perWidgetToken: 4 }, T0)),
      );
      assert.equal(got.filter((g) => g.created).length, 4);
    });

    it("an application's redirect URLs are replaced as a set, in URL order, and are its own", async () => {
      const org = await newOrg(s());
      const a = await newApplication(s(), [org]);
      const b = await newApplication(s(), [org]);
      assert.deepEqual(await s().applications.redirectUrls(a.id), []);
      await s().applications.setRedirectUrls(
        a.id,
        ['https://b.example/cb', 'https://a.example/cb', 'https://a.example/cb'],
        T0,
      );
      assert.deepEqual(await s().applications.redirectUrls(a.id), [
        'https://a.example/cb',
        'https://b.example/cb',
      ]);
      assert.deepEqual(await s().applications.redirectUrls(b.id), []);
      await s().applications.setRedirectUrls(a.id, ['https://c.example/cb'], T1);
      assert.deepEqual(await s().applications.redirectUrls(a.id), ['https://c.example/cb']);
      await s().applications.setRedirectUrls(a.id, [], T2);
      assert.deepEqual(await s().applications.redirectUrls(a.id), []);
    });
  });
}
