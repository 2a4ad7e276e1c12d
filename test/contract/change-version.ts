// The store contract: changeVersion, under which the request path keeps reads in memory (src/core/read-cache.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/port.ts';
import {
  freshStore,
  newApplication,
  newConnector,
  newOrg,
  newWorkspace,
  type OpenedStore,
  T1,
} from './fixtures.ts';

/** The version once no notification of earlier writes is still on its way (PostgreSQL sends them on commit). */
async function settled(store: Store): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const before = store.changeVersion();
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (store.changeVersion() === before) return before;
    // A version that never holds still: the store keeps nothing in memory (PostgreSQL not listening).
    if (Date.now() > deadline) throw new Error('changeVersion never held still for 50 ms');
  }
}

export function changeVersionContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: changeVersion`, () => {
    const s = freshStore(open);

    it('stays the same over reads, and differs as soon as a write returns', async () => {
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main');
      const c = await newConnector(s(), org, ws.id);
      const app = await newApplication(s(), [org]);

      const v0 = await settled(s());
      assert.ok(await s().applications.isActiveInOrganization(app.id, org));
      assert.ok(await s().connectors.getWithCredentials(org, c.id));
      await s().connectors.list(org, {});
      assert.equal(s().changeVersion(), v0);

      assert.equal(await s().connectors.update(org, c.id, { name: 'Renamed', now: T1 }), true);
      const v1 = s().changeVersion();
      assert.notEqual(v1, v0);

      await settled(s());
      assert.equal(await s().applications.revoke(org, app.id, T1), true);
      assert.notEqual(s().changeVersion(), v1);
    });

    it('a transaction’s writes change it when it commits', async () => {
      const org = await newOrg(s());
      const v0 = await settled(s());
      let inside = Number.NaN;
      await s().transaction(async (tx) => {
        await tx.workspaces.create({
          id: randomUUID(),
          organization_id: org,
          name: 'In a transaction',
          status: 'active',
          cache_enabled: null,
          created_at: T1,
          updated_at: T1,
        });
        inside = s().changeVersion();
      });
      assert.notEqual(s().changeVersion(), v0);
      assert.notEqual(s().changeVersion(), inside);
    });
  });
}
