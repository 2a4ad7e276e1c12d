// The store contract: server secrets and transactions (see store-contract.ts).
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
} from './fixtures.ts';

export function secretsContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: serverSecrets`, () => {
    const s = freshStore(open);

    it('get of an unknown name is undefined', async () => {
      assert.equal(await s().serverSecrets.get('nope'), undefined);
    });

    it('putIfAbsent stores the value and returns it', async () => {
      const value = creds();
      assert.deepEqual(await s().serverSecrets.putIfAbsent('jwt', value, T0), value);
      assert.deepEqual(await s().serverSecrets.get('jwt'), value);
    });

    it('putIfAbsent keeps the first value and returns it to a later writer', async () => {
      const first = creds();
      await s().serverSecrets.putIfAbsent('jwt', first, T0);
      assert.deepEqual(await s().serverSecrets.putIfAbsent('jwt', creds(), T1), first);
      assert.deepEqual(await s().serverSecrets.get('jwt'), first);
    });

    it('two concurrent putIfAbsent calls both get the one stored value', async () => {
      const a = creds();
      const b = creds();
      const [ra, rb] = await Promise.all([
        s().serverSecrets.putIfAbsent('jwt', a, T0),
        s().serverSecrets.putIfAbsent('jwt', b, T0),
      ]);
      assert.deepEqual(ra, rb);
      assert.ok(ra.ciphertext === a.ciphertext || ra.ciphertext === b.ciphertext);
      assert.deepEqual(await s().serverSecrets.get('jwt'), ra);
    });

    it('list returns every secret with its name', async () => {
      const a = creds();
      const b = creds();
      await s().serverSecrets.putIfAbsent('a', a, T0);
      await s().serverSecrets.putIfAbsent('b', b, T0);
      const rows = [...(await s().serverSecrets.list())].sort((x, y) => x.name.localeCompare(y.name));
      assert.deepEqual(rows, [
        { name: 'a', ...a },
        { name: 'b', ...b },
      ]);
    });

    it('replace overwrites the stored value', async () => {
      await s().serverSecrets.putIfAbsent('jwt', creds(), T0);
      const rotated = creds('key-2');
      await s().serverSecrets.replace('jwt', rotated);
      assert.deepEqual(await s().serverSecrets.get('jwt'), rotated);
    });
  });

  describe(`${name} store contract: transaction`, () => {
    const s = freshStore(open);

    it('commits its writes and returns the function’s value', async () => {
      const orgId = randomUUID();
      const result = await s().transaction(async (tx) => {
        await tx.organizations.create({ id: orgId, name: 'Tx', created_at: T0 });
        await newWorkspace(tx, orgId, 'Main');
        return 42;
      });
      assert.equal(result, 42);
      assert.equal((await s().organizations.get(orgId))?.name, 'Tx');
      assert.equal(await s().workspaces.count(orgId), 1);
    });

    it('the transaction store sees its own writes', async () => {
      await s().transaction(async (tx) => {
        const org = await newOrg(tx);
        const ws = await newWorkspace(tx, org, 'Main');
        const c = await newConnector(tx, org, ws.id);
        assert.equal((await tx.connectors.get(org, c.id))?.id, c.id);
        assert.equal(await tx.connectors.count(org), 1);
      });
    });

    it('rolls back every write when the function throws, and rethrows', async () => {
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main');
      const c = await newConnector(s(), org, ws.id);
      const newOrgId = randomUUID();
      const boom = new Error('boom');
      await assert.rejects(
        s().transaction(async (tx) => {
          await tx.organizations.create({ id: newOrgId, name: 'Gone', created_at: T0 });
          await newWorkspace(tx, org, 'Gone');
          await tx.workspaces.update(org, ws.id, { name: 'Renamed', now: T1 });
          await tx.connectors.update(org, c.id, { credentials: creds(), now: T1 });
          await tx.connectors.delete(org, c.id);
          await tx.serverSecrets.putIfAbsent('jwt', creds(), T1);
          throw boom;
        }),
        (err) => err === boom,
      );
      assert.equal(await s().organizations.get(newOrgId), undefined);
      assert.equal(await s().workspaces.getByName(org, 'Gone'), undefined);
      assert.equal((await s().workspaces.get(org, ws.id))?.name, 'Main');
      assert.deepEqual(await s().connectors.getCredentials(org, c.id), c.credentials);
      assert.equal(await s().serverSecrets.get('jwt'), undefined);
    });
  });
}
