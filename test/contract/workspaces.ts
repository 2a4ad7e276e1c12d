// The store contract: workspaces (see store-contract.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { freshStore, newConnector, newOrg, newWorkspace, type OpenedStore, T1, T2 } from './fixtures.ts';

export function workspacesContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: workspaces`, () => {
    const s = freshStore(open);

    it('get and getByName return a created workspace', async () => {
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main', { cache_enabled: true });
      assert.deepEqual(await s().workspaces.get(org, ws.id), ws);
      assert.deepEqual(await s().workspaces.getByName(org, 'Main'), ws);
    });

    it('cache_enabled round-trips as null, true and false', async () => {
      const org = await newOrg(s());
      for (const value of [null, true, false]) {
        const ws = await newWorkspace(s(), org, `ws-${value}`, { cache_enabled: value });
        assert.equal((await s().workspaces.get(org, ws.id))?.cache_enabled, value);
      }
    });

    it('get and getByName of an unknown workspace are undefined', async () => {
      const org = await newOrg(s());
      assert.equal(await s().workspaces.get(org, randomUUID()), undefined);
      assert.equal(await s().workspaces.getByName(org, 'nope'), undefined);
    });

    it('another organization cannot get a workspace by id or name', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const ws = await newWorkspace(s(), orgA, 'Main');
      assert.equal(await s().workspaces.get(orgB, ws.id), undefined);
      assert.equal(await s().workspaces.getByName(orgB, 'Main'), undefined);
    });

    it('list orders by name and stops at limit', async () => {
      const org = await newOrg(s());
      for (const n of ['c', 'a', 'b']) await newWorkspace(s(), org, n);
      const names = (await s().workspaces.list(org, { limit: 2 })).map((w) => w.name);
      assert.deepEqual(names, ['a', 'b']);
    });

    it('list with after continues strictly after that (name, id)', async () => {
      const org = await newOrg(s());
      for (const n of ['a', 'b', 'c', 'd', 'e']) await newWorkspace(s(), org, n);
      const first = await s().workspaces.list(org, { limit: 2 });
      const last = first[first.length - 1]!;
      const second = await s().workspaces.list(org, { limit: 2, after: { name: last.name, id: last.id } });
      assert.deepEqual(
        second.map((w) => w.name),
        ['c', 'd'],
      );
      const tail = second[second.length - 1]!;
      const third = await s().workspaces.list(org, { limit: 2, after: { name: tail.name, id: tail.id } });
      assert.deepEqual(
        third.map((w) => w.name),
        ['e'],
      );
    });

    it('list filters by status', async () => {
      const org = await newOrg(s());
      await newWorkspace(s(), org, 'on', { status: 'active' });
      await newWorkspace(s(), org, 'off', { status: 'inactive' });
      const inactive = await s().workspaces.list(org, { limit: 10, status: 'inactive' });
      assert.deepEqual(
        inactive.map((w) => w.name),
        ['off'],
      );
      const active = await s().workspaces.list(org, { limit: 10, status: 'active' });
      assert.deepEqual(
        active.map((w) => w.name),
        ['on'],
      );
    });

    it('list filters by nameContains, case-insensitively and with % and _ taken literally', async () => {
      const org = await newOrg(s());
      for (const n of ['Sales EU', 'sales us', 'Support', '50% off', '500 off', 'a_b', 'axb']) {
        await newWorkspace(s(), org, n);
      }
      const sales = await s().workspaces.list(org, { limit: 10, nameContains: 'SALES' });
      assert.deepEqual(sales.map((w) => w.name).sort(), ['Sales EU', 'sales us']);
      const percent = await s().workspaces.list(org, { limit: 10, nameContains: '0%' });
      assert.deepEqual(
        percent.map((w) => w.name),
        ['50% off'],
      );
      const underscore = await s().workspaces.list(org, { limit: 10, nameContains: 'a_' });
      assert.deepEqual(
        underscore.map((w) => w.name),
        ['a_b'],
      );
    });

    it("list never returns another organization's workspaces", async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      await newWorkspace(s(), orgA, 'mine');
      await newWorkspace(s(), orgB, 'theirs');
      const names = (await s().workspaces.list(orgA, { limit: 10 })).map((w) => w.name);
      assert.deepEqual(names, ['mine']);
    });

    it('stats counts the organization’s workspaces by status', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      await newWorkspace(s(), orgA, 'a1');
      await newWorkspace(s(), orgA, 'a2');
      await newWorkspace(s(), orgA, 'a3', { status: 'inactive' });
      await newWorkspace(s(), orgB, 'b1', { status: 'inactive' });
      assert.deepEqual(await s().workspaces.stats(orgA), { active: 2, inactive: 1 });
      assert.deepEqual(await s().workspaces.stats(randomUUID()), { active: 0, inactive: 0 });
    });

    it('count counts the organization’s workspaces only', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      await newWorkspace(s(), orgA, 'a1');
      await newWorkspace(s(), orgA, 'a2', { status: 'inactive' });
      await newWorkspace(s(), orgB, 'b1');
      assert.equal(await s().workspaces.count(orgA), 2);
      assert.equal(await s().workspaces.count(orgB), 1);
    });

    it('update changes only the patched fields and updated_at, and returns the workspace', async () => {
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main', { cache_enabled: true });
      const renamed = await s().workspaces.update(org, ws.id, { name: 'Renamed', now: T1 });
      assert.deepEqual(renamed, { ...ws, name: 'Renamed', updated_at: T1 });
      const deactivated = await s().workspaces.update(org, ws.id, {
        status: 'inactive',
        cache_enabled: null,
        now: T2,
      });
      assert.deepEqual(deactivated, {
        ...ws,
        name: 'Renamed',
        status: 'inactive',
        cache_enabled: null,
        updated_at: T2,
      });
      assert.deepEqual(await s().workspaces.get(org, ws.id), deactivated);
    });

    it('update of an unknown workspace is undefined', async () => {
      const org = await newOrg(s());
      assert.equal(await s().workspaces.update(org, randomUUID(), { name: 'x', now: T1 }), undefined);
    });

    it('another organization cannot update a workspace', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const ws = await newWorkspace(s(), orgA, 'Main');
      assert.equal(await s().workspaces.update(orgB, ws.id, { name: 'Hijacked', now: T1 }), undefined);
      assert.deepEqual(await s().workspaces.get(orgA, ws.id), ws);
    });

    it('delete removes the workspace once', async () => {
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main');
      assert.equal(await s().workspaces.delete(org, ws.id), true);
      assert.equal(await s().workspaces.get(org, ws.id), undefined);
      assert.equal(await s().workspaces.delete(org, ws.id), false);
    });

    it('another organization cannot delete a workspace', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const ws = await newWorkspace(s(), orgA, 'Main');
      assert.equal(await s().workspaces.delete(orgB, ws.id), false);
      assert.deepEqual(await s().workspaces.get(orgA, ws.id), ws);
    });

    it('delete removes its connectors and their credentials, and no other workspace’s', async () => {
      const org = await newOrg(s());
      const doomed = await newWorkspace(s(), org, 'Doomed');
      const kept = await newWorkspace(s(), org, 'Kept');
      const gone = await newConnector(s(), org, doomed.id);
      const stays = await newConnector(s(), org, kept.id);
      assert.equal(await s().workspaces.delete(org, doomed.id), true);
      assert.equal(await s().connectors.get(org, gone.id), undefined);
      assert.equal(await s().connectors.getCredentials(org, gone.id), undefined);
      assert.equal(await s().connectors.count(org), 1);
      const rotation = (await s().connectors.listCredentialsForRotation()).map((r) => r.id);
      assert.deepEqual(rotation, [stays.id]);
    });
  });
}
