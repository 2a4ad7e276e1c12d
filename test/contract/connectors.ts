// The store contract: connectors (see store-contract.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  creds,
  freshStore,
  newConnector,
  newOrg,
  newWorkspace,
  type OpenedStore,
  T0,
  T1,
  T2,
} from './fixtures.ts';

export function connectorsContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: connectors`, () => {
    const s = freshStore(open);

    /** An organization with one workspace. */
    async function setup() {
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main');
      return { org, ws };
    }

    it('get returns the connector with its workspace and valid credentials status, never credentials', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      const got = await s().connectors.get(org, c.id);
      assert.deepEqual(got, {
        id: c.id,
        organization_id: org,
        workspace_id: ws.id,
        workspace_name: 'Main',
        workspace_status: 'active',
        definition_id: c.definition_id,
        connector_type: c.connector_type,
        name: c.name,
        replication_config: c.replication_config,
        credential_option: c.credential_option,
        credentials_status: 'valid',
        credentials_error: null,
        source_template_id: null,
        entities: null,
        created_at: T0,
        updated_at: T0,
      });
      assert.equal(JSON.stringify(got).includes(c.credentials.ciphertext), false);
    });

    it('get reflects the workspace’s current name and status', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      await s().workspaces.update(org, ws.id, { name: 'Renamed', status: 'inactive', now: T1 });
      const got = await s().connectors.get(org, c.id);
      assert.equal(got?.workspace_name, 'Renamed');
      assert.equal(got?.workspace_status, 'inactive');
    });

    it('get of an unknown connector is undefined', async () => {
      const { org } = await setup();
      assert.equal(await s().connectors.get(org, randomUUID()), undefined);
    });

    it('list filters by workspace and by definition', async () => {
      const { org, ws } = await setup();
      const other = await newWorkspace(s(), org, 'Other');
      const a = await newConnector(s(), org, ws.id, { definition_id: 'def-1', now: T0 });
      const b = await newConnector(s(), org, ws.id, { definition_id: 'def-2', now: T1 });
      const c = await newConnector(s(), org, other.id, { definition_id: 'def-1', now: T2 });
      const ids = async (filter: { workspaceId?: string; definitionId?: string }) =>
        (await s().connectors.list(org, filter)).map((x) => x.id).sort();
      assert.deepEqual(await ids({}), [a.id, b.id, c.id].sort());
      assert.deepEqual(await ids({ workspaceId: ws.id }), [a.id, b.id].sort());
      assert.deepEqual(await ids({ definitionId: 'def-1' }), [a.id, c.id].sort());
      assert.deepEqual(await ids({ workspaceId: ws.id, definitionId: 'def-1' }), [a.id]);
    });

    it('count counts the organization’s connectors across its workspaces', async () => {
      const { org, ws } = await setup();
      const other = await newWorkspace(s(), org, 'Other');
      const orgB = await newOrg(s());
      const wsB = await newWorkspace(s(), orgB, 'B');
      await newConnector(s(), org, ws.id);
      await newConnector(s(), org, other.id);
      await newConnector(s(), orgB, wsB.id);
      assert.equal(await s().connectors.count(org), 2);
      assert.equal(await s().connectors.count(orgB), 1);
    });

    it('update changes only the patched fields and updated_at', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      const before = await s().connectors.get(org, c.id);
      assert.equal(
        await s().connectors.update(org, c.id, {
          name: 'Renamed',
          replication_config: { repos: ['x/y'] },
          credential_option: 'oauth2',
          now: T1,
        }),
        true,
      );
      assert.deepEqual(await s().connectors.get(org, c.id), {
        ...before,
        name: 'Renamed',
        replication_config: { repos: ['x/y'] },
        credential_option: 'oauth2',
        updated_at: T1,
      });
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), c.credentials);
    });

    it('update with new credentials stores them and resets the status to valid', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      await s().connectors.markCredentialsNeedReauth(org, c.id, c.credentials, 'refresh refused');
      const next = creds('key-2');
      assert.equal(await s().connectors.update(org, c.id, { credentials: next, now: T1 }), true);
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), next);
      const got = await s().connectors.get(org, c.id);
      assert.equal(got?.credentials_status, 'valid');
      assert.equal(got?.credentials_error, null);
    });

    it('update of an unknown connector is false', async () => {
      const { org } = await setup();
      assert.equal(await s().connectors.update(org, randomUUID(), { name: 'x', now: T1 }), false);
    });

    it('delete removes the connector once', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      assert.equal(await s().connectors.delete(org, c.id), true);
      assert.equal(await s().connectors.get(org, c.id), undefined);
      assert.equal(await s().connectors.getCredentials(org, c.id), undefined);
      assert.equal(await s().connectors.delete(org, c.id), false);
    });

    it('getWithCredentials returns the connector and its stored credentials', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      const got = await s().connectors.getWithCredentials(org, c.id);
      assert.deepEqual(got, { connector: await s().connectors.get(org, c.id), credentials: c.credentials });
    });

    it('getWithCredentials and getCredentials of an unknown connector are undefined', async () => {
      const { org } = await setup();
      assert.equal(await s().connectors.getWithCredentials(org, randomUUID()), undefined);
      assert.equal(await s().connectors.getCredentials(org, randomUUID()), undefined);
    });

    it('getCredentials returns the stored ciphertext and key id', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), c.credentials);
    });

    it('replaceCredentialsIfUnchanged swaps when the row holds expected, and sets status valid', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      await s().connectors.markCredentialsNeedReauth(org, c.id, c.credentials, 'refresh refused');
      const next = creds();
      assert.equal(await s().connectors.replaceCredentialsIfUnchanged(org, c.id, c.credentials, next), true);
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), next);
      const got = await s().connectors.get(org, c.id);
      assert.equal(got?.credentials_status, 'valid');
      assert.equal(got?.credentials_error, null);
    });

    it('replaceCredentialsIfUnchanged refuses a stale expected', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      const current = creds();
      await s().connectors.update(org, c.id, { credentials: current, now: T1 });
      assert.equal(
        await s().connectors.replaceCredentialsIfUnchanged(org, c.id, c.credentials, creds()),
        false,
      );
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), current);
    });

    it('of two racing swaps with the same expected, exactly one wins', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      const first = creds();
      const second = creds();
      const results = await Promise.all([
        s().connectors.replaceCredentialsIfUnchanged(org, c.id, c.credentials, first),
        s().connectors.replaceCredentialsIfUnchanged(org, c.id, c.credentials, second),
      ]);
      assert.equal(results.filter(Boolean).length, 1);
      const winner = results[0] ? first : second;
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), winner);
    });

    it('replaceCredentialsIfUnchanged of an unknown connector is false', async () => {
      const { org } = await setup();
      assert.equal(
        await s().connectors.replaceCredentialsIfUnchanged(org, randomUUID(), creds(), creds()),
        false,
      );
    });

    it('markCredentialsNeedReauth with the current ciphertext sets needs_reauth and the reason', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      assert.equal(
        await s().connectors.markCredentialsNeedReauth(org, c.id, c.credentials, 'invalid_grant'),
        true,
      );
      const got = await s().connectors.get(org, c.id);
      assert.equal(got?.credentials_status, 'needs_reauth');
      assert.equal(got?.credentials_error, 'invalid_grant');
      assert.equal(
        (await s().connectors.getWithCredentials(org, c.id))?.connector.credentials_status,
        'needs_reauth',
      );
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), c.credentials);
    });

    it('markCredentialsNeedReauth with a stale ciphertext changes nothing', async () => {
      const { org, ws } = await setup();
      const c = await newConnector(s(), org, ws.id);
      assert.equal(
        await s().connectors.markCredentialsNeedReauth(org, c.id, creds(), 'invalid_grant'),
        false,
      );
      const got = await s().connectors.get(org, c.id);
      assert.equal(got?.credentials_status, 'valid');
      assert.equal(got?.credentials_error, null);
    });

    it('listCredentialsForRotation lists every connector of every organization', async () => {
      const { org, ws } = await setup();
      const orgB = await newOrg(s());
      const wsB = await newWorkspace(s(), orgB, 'B');
      const a = await newConnector(s(), org, ws.id);
      const b = await newConnector(s(), orgB, wsB.id);
      const rows = await s().connectors.listCredentialsForRotation();
      const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
      assert.deepEqual(
        [...rows].sort(byId),
        [
          { id: a.id, organization_id: org, ...a.credentials },
          { id: b.id, organization_id: orgB, ...b.credentials },
        ].sort(byId),
      );
    });

    it('replaceCredentialsForRotation replaces that connector’s ciphertext and key id only', async () => {
      const { org, ws } = await setup();
      const a = await newConnector(s(), org, ws.id);
      const b = await newConnector(s(), org, ws.id);
      const rotated = creds('key-2');
      await s().connectors.replaceCredentialsForRotation(a.id, rotated);
      assert.deepEqual(await s().connectors.getCredentials(org, a.id), rotated);
      assert.deepEqual(await s().connectors.getCredentials(org, b.id), b.credentials);
    });

    describe('tenant isolation', () => {
      /** A connector of organization A, and organization B trying to reach it. */
      async function twoTenants() {
        const { org: orgA, ws } = await setup();
        const orgB = await newOrg(s());
        await newWorkspace(s(), orgB, 'Main');
        const c = await newConnector(s(), orgA, ws.id);
        return { orgA, orgB, c };
      }

      it('another organization cannot read it (get, list, getWithCredentials, getCredentials)', async () => {
        const { orgB, c } = await twoTenants();
        assert.equal(await s().connectors.get(orgB, c.id), undefined);
        assert.deepEqual(await s().connectors.list(orgB, {}), []);
        assert.deepEqual(await s().connectors.list(orgB, { workspaceId: c.workspace_id }), []);
        assert.equal(await s().connectors.getWithCredentials(orgB, c.id), undefined);
        assert.equal(await s().connectors.getCredentials(orgB, c.id), undefined);
        assert.equal(await s().connectors.count(orgB), 0);
      });

      it('another organization cannot update or delete it', async () => {
        const { orgA, orgB, c } = await twoTenants();
        const before = await s().connectors.get(orgA, c.id);
        assert.equal(
          await s().connectors.update(orgB, c.id, { name: 'Hijacked', credentials: creds(), now: T1 }),
          false,
        );
        assert.equal(await s().connectors.delete(orgB, c.id), false);
        assert.deepEqual(await s().connectors.get(orgA, c.id), before);
        assert.deepEqual(await s().connectors.getCredentials(orgA, c.id), c.credentials);
      });

      it('another organization cannot swap or flag its credentials, even with the right ciphertext', async () => {
        const { orgA, orgB, c } = await twoTenants();
        assert.equal(
          await s().connectors.replaceCredentialsIfUnchanged(orgB, c.id, c.credentials, creds()),
          false,
        );
        assert.equal(await s().connectors.markCredentialsNeedReauth(orgB, c.id, c.credentials, 'x'), false);
        assert.deepEqual(await s().connectors.getCredentials(orgA, c.id), c.credentials);
        assert.equal((await s().connectors.get(orgA, c.id))?.credentials_status, 'valid');
      });
    });
  });
}
