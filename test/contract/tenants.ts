// The store contract: organizations, accounts and applications (see store-contract.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { freshStore, newApplication, newOrg, type OpenedStore, T0, T1 } from './fixtures.ts';

export function tenantsContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: organizations`, () => {
    const s = freshStore(open);

    it('get returns a created organization', async () => {
      const id = randomUUID();
      await s().organizations.create({ id, name: 'Acme', created_at: T0 });
      assert.deepEqual(await s().organizations.get(id), { id, name: 'Acme', created_at: T0 });
    });

    it('get of an unknown id is undefined', async () => {
      assert.equal(await s().organizations.get(randomUUID()), undefined);
    });

    it('list returns every organization', async () => {
      const a = await newOrg(s(), 'A');
      const b = await newOrg(s(), 'B');
      const ids = (await s().organizations.list()).map((o) => o.id);
      assert.deepEqual(ids.sort(), [a, b].sort());
    });

    it('lock serialises transactions of one organization: count-then-insert stops exactly at a limit', async () => {
      const org = await newOrg(s());
      const limit = 3;
      const attempt = (i: number) =>
        s().transaction(async (tx) => {
          await tx.organizations.lock(org);
          if ((await tx.workspaces.count(org)) >= limit) return false;
          // A pause between the count and the insert, where a racing transaction would slip in.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await tx.workspaces.create({
            id: randomUUID(),
            organization_id: org,
            name: `ws-${i}`,
            status: 'active',
            cache_enabled: null,
            created_at: T0,
            updated_at: T0,
          });
          return true;
        });
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(i)));
      assert.equal(results.filter(Boolean).length, limit);
      assert.equal(await s().workspaces.count(org), limit);
    });

    it('lock outside a transaction is a programming error', async () => {
      const org = await newOrg(s());
      await assert.rejects(() => s().organizations.lock(org), /needs a transaction/);
    });

    it('ping resolves on an open store', async () => {
      await s().ping();
    });
  });

  describe(`${name} store contract: accounts`, () => {
    const s = freshStore(open);

    it('isMember is true only after addMembership, and only for that organization', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const account = randomUUID();
      await s().accounts.create({ id: account, name: 'Acc', created_at: T0 });
      assert.equal(await s().accounts.isMember(account, orgA), false);
      await s().accounts.addMembership(account, orgA, T1);
      assert.equal(await s().accounts.isMember(account, orgA), true);
      assert.equal(await s().accounts.isMember(account, orgB), false);
    });

    it('organizationIds lists the memberships of the account', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const account = randomUUID();
      await s().accounts.create({ id: account, name: 'Acc', created_at: T0 });
      await s().accounts.addMembership(account, orgA, T0);
      await s().accounts.addMembership(account, orgB, T1);
      assert.deepEqual((await s().accounts.organizationIds(account)).sort(), [orgA, orgB].sort());
    });

    it('organizationIds of an account without memberships is empty', async () => {
      const account = randomUUID();
      await s().accounts.create({ id: account, name: 'Acc', created_at: T0 });
      assert.deepEqual(await s().accounts.organizationIds(account), []);
    });

    // Not in the port's doc comments; core's addAccountToOrganization relies on it (it adds without checking).
    it('adding the same membership twice keeps one', async () => {
      const org = await newOrg(s());
      const account = randomUUID();
      await s().accounts.create({ id: account, name: 'Acc', created_at: T0 });
      await s().accounts.addMembership(account, org, T0);
      await s().accounts.addMembership(account, org, T1);
      assert.deepEqual(await s().accounts.organizationIds(account), [org]);
    });
  });

  describe(`${name} store contract: applications`, () => {
    const s = freshStore(open);

    it('findByClientIdForLogin returns the application with its secret hash', async () => {
      const org = await newOrg(s());
      const app = await newApplication(s(), [org]);
      assert.deepEqual(await s().applications.findByClientIdForLogin(app.client_id), app);
    });

    it('findByClientIdForLogin of an unknown client id is undefined', async () => {
      assert.equal(await s().applications.findByClientIdForLogin('ces_unknown'), undefined);
    });

    it('listForOrganization lists applications of member accounts only, without the secret hash', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const appA = await newApplication(s(), [orgA]);
      await newApplication(s(), [orgB]);
      const listed = await s().applications.listForOrganization(orgA);
      assert.equal(listed.length, 1);
      const { secret_hash: _, ...withoutHash } = appA;
      assert.deepEqual({ ...listed[0] }, withoutHash);
      assert.equal('secret_hash' in listed[0]!, false);
    });

    it('isActiveInOrganization is true for a member organization and false for another', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const app = await newApplication(s(), [orgA]);
      assert.equal(await s().applications.isActiveInOrganization(app.id, orgA), true);
      assert.equal(await s().applications.isActiveInOrganization(app.id, orgB), false);
    });

    it('isActiveInOrganization is false for an unknown application', async () => {
      const org = await newOrg(s());
      assert.equal(await s().applications.isActiveInOrganization(randomUUID(), org), false);
    });

    it('revoke by id marks it revoked and inactive', async () => {
      const org = await newOrg(s());
      const app = await newApplication(s(), [org]);
      assert.equal(await s().applications.revoke(org, app.id, T1), true);
      assert.equal(await s().applications.isActiveInOrganization(app.id, org), false);
      const [listed] = await s().applications.listForOrganization(org);
      assert.equal(listed?.revoked_at, T1);
    });

    it('revoke by client id marks it revoked and inactive', async () => {
      const org = await newOrg(s());
      const app = await newApplication(s(), [org]);
      assert.equal(await s().applications.revoke(org, app.client_id, T1), true);
      assert.equal(await s().applications.isActiveInOrganization(app.id, org), false);
    });

    it('a revoked application is never returned as one that can log in', async () => {
      const org = await newOrg(s());
      const app = await newApplication(s(), [org]);
      await s().applications.revoke(org, app.id, T1);
      const found = await s().applications.findByClientIdForLogin(app.client_id);
      assert.ok(found === undefined || found.revoked_at !== null);
    });

    it('revoke of an unknown application is false', async () => {
      const org = await newOrg(s());
      assert.equal(await s().applications.revoke(org, randomUUID(), T1), false);
    });

    it('another organization cannot revoke, list or activate the application', async () => {
      const orgA = await newOrg(s());
      const orgB = await newOrg(s());
      const app = await newApplication(s(), [orgA]);
      assert.equal(await s().applications.revoke(orgB, app.id, T1), false);
      assert.equal(await s().applications.revoke(orgB, app.client_id, T1), false);
      assert.deepEqual(await s().applications.listForOrganization(orgB), []);
      assert.equal(await s().applications.isActiveInOrganization(app.id, orgA), true);
    });
  });
}
