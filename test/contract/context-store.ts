// The store contract: the Context Store repository (see store-contract.ts), through the port only: sync states,
// leases, index writes and search, restart and drop. Index tables come from `ensureLayouts` of a small definition.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDefinition } from '../../src/connectors/load.ts';
import { definitionLayouts, type EntityLayout } from '../../src/context-store/layout.ts';
import type { SearchRequest } from '../../src/context-store/query.ts';
import type { SyncCheckpoint, SyncJob } from '../../src/store/port.ts';
import { indexedEntityYaml, testDefinitionYaml } from '../helpers/definition-yaml.ts';
import { freshStore, newConnector, newOrg, newWorkspace, type OpenedStore, T0, T1, T2 } from './fixtures.ts';

const T3 = '2024-01-04T00:00:00.000Z';
const T4 = '2024-01-05T00:00:00.000Z';

/** A connector type with two indexed entities: `issues` (searchable by state and number) and `labels`. */
const YAML = testDefinitionYaml(
  '5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  'contracty',
  indexedEntityYaml('issues', [
    ['id', 'string'],
    ['state', 'string'],
    ['number', 'integer'],
  ]) +
    indexedEntityYaml('labels', [
      ['id', 'string'],
      ['name', 'string'],
    ]),
);

const def = parseDefinition(YAML, 'contracty.yaml');
const layouts = definitionLayouts(def);
const issues = layouts.find((l) => l.entity === 'issues') as EntityLayout;
const ENTITIES = ['issues', 'labels'];

function checkpoint(generation: number, fields: Partial<SyncCheckpoint> = {}): SyncCheckpoint {
  return {
    partitions: [{}],
    partition: 0,
    cursor: null,
    generation,
    highs: {},
    bounds: {},
    start: null,
    ...fields,
  };
}

const issue = (id: string, state: string, number: number) => ({ id, state, number, title: `Issue ${id}` });

export function contextStoreContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: context store`, () => {
    const s = freshStore(open);
    const cs = () => s().contextStore;

    /** An organization with an active workspace and one connector of the definition, its syncs started at T0. */
    async function setup(entities: string[] = ENTITIES) {
      await cs().ensureLayouts(layouts, T0);
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main');
      const c = await newConnector(s(), org, ws.id, { definition_id: def.id });
      await cs().initConnector(org, c.id, entities, T0);
      return { org, ws, c };
    }

    /** A second connector of the same definition, in another organization, its syncs started at T0. */
    async function otherTenant() {
      const org = await newOrg(s(), 'Other');
      const ws = await newWorkspace(s(), org, 'Main');
      const c = await newConnector(s(), org, ws.id, { definition_id: def.id });
      await cs().initConnector(org, c.id, ENTITIES, T0);
      return { org, c };
    }

    /** Claims (as `owner`, at `now`) until the job of `connectorId`'s `entity` comes up; others are released. */
    async function claimFor(connectorId: string, entity: string, owner = 'w1', now = T0, until = T1) {
      for (let i = 0; i < 10; i++) {
        const job = await cs().claim(owner, now, until);
        if (!job) return undefined;
        if (job.connector_id === connectorId && job.entity === entity) return job;
        await cs().release(job, { run_after: T4, attempts: 0 }, now);
      }
      return undefined;
    }

    /** Writes `records` to the issues index as one page of `job`'s pass. */
    async function commit(job: SyncJob, records: unknown[], generation: number, now = T0, until = T1) {
      const page = cs().encode(job.connector_id, issues, records, generation, now);
      const done = await cs().commitPage(
        job,
        { layout: issues, pages: [page] },
        checkpoint(generation),
        { status: 'Building Preview', ready_for_search: true, count: true },
        now,
        until,
      );
      return done.held;
    }

    async function search(org: string, connectorId: string, req: Partial<SearchRequest> = {}) {
      const rows = await cs().search(org, connectorId, issues, { limit: 100, offset: 0, ...req });
      return rows.map((r) => JSON.parse(r.data) as { id: string; state: string; number: number });
    }

    describe('sync states', () => {
      it('initConnector starts every entity Initializing, with a backfill due now', async () => {
        const { org, c } = await setup();
        const states = await cs().states(org, c.id);
        assert.deepEqual(states.map((x) => x.entity).sort(), [...ENTITIES].sort());
        for (const st of states) {
          assert.equal(st.connector_id, c.id);
          assert.equal(st.status, 'Initializing');
          assert.equal(st.ready_for_search, false);
          assert.equal(st.entity_count, 0);
          assert.equal(st.pass, 'backfill');
          assert.equal(st.run_after, T0);
        }
      });

      it('initConnector again keeps the existing states (only entities without one are started)', async () => {
        const { org, c } = await setup();
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        await cs().release(job, { run_after: T3, attempts: 2, status: 'Failed', last_error: 'boom' }, T1);
        await cs().initConnector(org, c.id, ENTITIES, T2);
        const st = (await cs().states(org, c.id)).find((x) => x.entity === 'issues');
        assert.equal(st?.status, 'Failed');
        assert.equal(st?.run_after, T3);
      });

      it('statesFor returns the states of each connector asked for', async () => {
        const { org, ws, c } = await setup();
        const d = await newConnector(s(), org, ws.id, { definition_id: def.id });
        await cs().initConnector(org, d.id, ['issues'], T0);
        const map = await cs().statesFor(org, [c.id, d.id]);
        assert.deepEqual(map.get(c.id), await cs().states(org, c.id));
        assert.deepEqual(
          map.get(d.id)?.map((x) => [x.entity, x.status]),
          [['issues', 'Initializing']],
        );
      });

      it('another organization sees no states of the connector', async () => {
        const { c } = await setup();
        const { org: orgB } = await otherTenant();
        assert.deepEqual(await cs().states(orgB, c.id), []);
        assert.equal((await cs().statesFor(orgB, [c.id])).get(c.id), undefined);
      });
    });

    describe('leases', () => {
      it('claim hands a due job, with its organization and owner, and a second claim gets nothing for it', async () => {
        const { org, c } = await setup(['issues']);
        const job = await cs().claim('w1', T0, T1);
        assert.ok(job);
        assert.equal(job.connector_id, c.id);
        assert.equal(job.entity, 'issues');
        assert.equal(job.organization_id, org);
        assert.equal(job.lease_owner, 'w1');
        assert.equal(job.pass, 'backfill');
        assert.equal(job.checkpoint, null);
        // Before leaseUntil, nobody gets it again.
        assert.equal(await cs().claim('w2', T0, T1), undefined);
        assert.equal(await cs().claim('w2', '2024-01-01T12:00:00.000Z', T2), undefined);
      });

      it('of two concurrent claims of one due job, exactly one gets it', async () => {
        await setup(['issues']);
        const got = await Promise.all([cs().claim('w1', T0, T1), cs().claim('w2', T0, T1)]);
        const jobs = got.filter((j) => j !== undefined);
        assert.equal(jobs.length, 1);
        assert.equal(jobs[0]?.entity, 'issues');
      });

      it('nothing is claimed before it is due', async () => {
        const { org, ws } = await setup([]);
        const c = await newConnector(s(), org, ws.id, { definition_id: def.id });
        await cs().initConnector(org, c.id, ['issues'], T1);
        assert.equal(await cs().claim('w1', T0, T2), undefined);
        assert.equal((await cs().claim('w1', T1, T2))?.connector_id, c.id);
      });

      it('an expired lease can be taken over; the old owner’s writes are then refused', async () => {
        const { org, c } = await setup(['issues']);
        const first = await claimFor(c.id, 'issues', 'w1', T0, T1);
        assert.ok(first);
        const second = await claimFor(c.id, 'issues', 'w2', T2, T3);
        assert.ok(second);
        assert.equal(second.lease_owner, 'w2');
        assert.equal(await cs().saveCheckpoint(first, checkpoint(1), 'Building Preview', T4), false);
        assert.equal(await commit(first, [issue('a', 'open', 1)], 1, T2, T4), false);
        assert.deepEqual(await search(org, c.id), []);
        assert.equal(await cs().saveCheckpoint(second, checkpoint(1), 'Building Preview', T4), true);
      });

      it('saveCheckpoint with a lease we do not hold is refused and changes nothing', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        const before = await cs().states(org, c.id);
        const stolen: SyncJob = { ...job, lease_owner: 'intruder' };
        assert.equal(await cs().saveCheckpoint(stolen, checkpoint(1), 'Building Preview', T2), false);
        assert.deepEqual(await cs().states(org, c.id), before);
        // The lease is still ours: nobody can claim it before T1.
        assert.equal(await claimFor(c.id, 'issues', 'w2', T0, T1), undefined);
      });

      it('saveCheckpoint keeps the checkpoint and status, and extends the lease', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues', 'w1', T0, T1);
        assert.ok(job);
        const cp = checkpoint(1, { partitions: [{ repo: 'a/b' }, { repo: 'c/d' }] });
        assert.equal(await cs().saveCheckpoint(job, cp, 'Building Preview', T3), true);
        assert.equal(
          (await cs().states(org, c.id)).find((x) => x.entity === 'issues')?.status,
          'Building Preview',
        );
        // Extended to T3: still ours at T2; then, once expired, claimed with the checkpoint to resume from.
        assert.equal(await claimFor(c.id, 'issues', 'w2', T2, T3), undefined);
        const resumed = await claimFor(c.id, 'issues', 'w2', T4, '2024-01-06T00:00:00.000Z');
        assert.deepEqual(resumed?.checkpoint, cp);
      });

      it('release gives the sync back, due again at run_after, recording a failure', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues', 'w1', T0, T3);
        assert.ok(job);
        await cs().release(job, { run_after: T2, attempts: 1, status: 'Failed', last_error: 'boom' }, T1);
        const st = (await cs().states(org, c.id)).find((x) => x.entity === 'issues');
        assert.equal(st?.status, 'Failed');
        assert.equal(st?.last_error, 'boom');
        assert.equal(st?.run_after, T2);
        // Not due before run_after; then claimable by anyone, although the old lease ran to T3.
        assert.equal(await claimFor(c.id, 'issues', 'w2', T1, T4), undefined);
        const again = await claimFor(c.id, 'issues', 'w2', T2, T4);
        assert.equal(again?.lease_owner, 'w2');
        assert.equal(again?.attempts, 1);
      });

      it('leaseOwners lists the owners holding leases; releaseOwner frees all of one owner’s', async () => {
        const { c } = await setup();
        assert.deepEqual(await cs().leaseOwners(), []);
        const a = await cs().claim('w1', T0, T2);
        const b = await cs().claim('w2', T0, T2);
        assert.ok(a && b);
        assert.deepEqual((await cs().leaseOwners()).sort(), ['w1', 'w2']);
        assert.equal(await cs().releaseOwner('w1'), 1);
        assert.deepEqual(await cs().leaseOwners(), ['w2']);
        assert.equal(await cs().releaseOwner('nobody'), 0);
        // w1's sync is claimable again at once; w2's is not.
        const again = await cs().claim('w3', T0, T2);
        assert.equal(again?.entity, a.entity);
        assert.equal(again?.connector_id, c.id);
        assert.equal(await cs().claim('w3', T0, T2), undefined);
      });

      it('syncs of an inactive workspace, or with the Context Store disabled, are not claimed', async () => {
        const { org, ws } = await setup(['issues']);
        await s().workspaces.update(org, ws.id, { status: 'inactive', now: T0 });
        assert.equal(await cs().claim('w1', T0, T1), undefined);
        await s().workspaces.update(org, ws.id, { status: 'active', cache_enabled: false, now: T0 });
        assert.equal(await cs().claim('w1', T0, T1), undefined);
        await s().workspaces.update(org, ws.id, { cache_enabled: true, now: T0 });
        assert.ok(await cs().claim('w1', T0, T1));
      });
    });

    describe('writes and search', () => {
      it('encode leaves out records without their primary key', () => {
        const page = cs().encode('c', issues, [issue('a', 'open', 1), { state: 'open', number: 2 }], 1, T0);
        assert.equal(page.count, 1);
      });

      it('committed records are found by an eq filter, in the requested order', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        const records = [issue('a', 'open', 3), issue('b', 'closed', 1), issue('c', 'open', 2)];
        assert.equal(await commit(job, records, 1), true);
        const open = await search(org, c.id, {
          filter: { eq: { state: 'open' } },
          sort: [{ number: 'asc' }],
        });
        assert.deepEqual(open, [records[2], records[0]]);
        const all = await search(org, c.id, { sort: [{ number: 'desc' }] });
        assert.deepEqual(
          all.map((r) => r.id),
          ['a', 'c', 'b'],
        );
        const page = await search(org, c.id, { sort: [{ number: 'asc' }], limit: 1, offset: 1 });
        assert.deepEqual(
          page.map((r) => r.id),
          ['c'],
        );
      });

      it('commitPage records the state it is given', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        assert.equal(await commit(job, [issue('a', 'open', 1), issue('b', 'open', 2)], 1), true);
        const st = (await cs().states(org, c.id)).find((x) => x.entity === 'issues');
        assert.equal(st?.status, 'Building Preview');
        assert.equal(st?.ready_for_search, true);
        assert.equal(st?.entity_count, 2);
      });

      it('a record committed again with the same primary key is replaced, not duplicated', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        assert.equal(await commit(job, [issue('a', 'open', 1), issue('b', 'open', 2)], 1), true);
        assert.equal(await commit(job, [issue('a', 'closed', 1)], 1), true);
        const all = await search(org, c.id, { sort: [{ number: 'asc' }] });
        assert.deepEqual(all, [issue('a', 'closed', 1), issue('b', 'open', 2)]);
        assert.deepEqual(await search(org, c.id, { filter: { eq: { state: 'open' } } }), [
          issue('b', 'open', 2),
        ]);
      });

      it('finishPass makes the entity Ready, schedules the next pass and releases the lease', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues', 'w1', T0, T3);
        assert.ok(job);
        assert.equal(await commit(job, [issue('a', 'open', 1)], 1, T0, T3), true);
        const next = {
          pass: 'incremental',
          run_after: T2,
          high_water: '{}',
          generation: 1,
          reconcile: true,
        } as const;
        assert.equal(await cs().finishPass(job, issues, next, T1), true);
        const st = (await cs().states(org, c.id)).find((x) => x.entity === 'issues');
        assert.equal(st?.status, 'Ready');
        assert.equal(st?.ready_for_search, true);
        assert.equal(st?.entity_count, 1);
        assert.equal(st?.pass, 'incremental');
        assert.equal(st?.run_after, T2);
        assert.equal(st?.generation, 1);
        assert.equal(st?.high_water, '{}');
        assert.equal(st?.backfilled_at, T1);
        assert.equal((await cs().leaseOwners()).includes('w1'), false);
        // Released, though the lease ran to T3: due again at T2 for anyone.
        assert.equal((await claimFor(c.id, 'issues', 'w2', T2, T4))?.pass, 'incremental');
        // The lease is gone: finishing again is refused.
        assert.equal(await cs().finishPass(job, issues, next, T1), false);
      });

      it('finishPass with reconcile drops the records of older generations; without, keeps them', async () => {
        const { org, c } = await setup(['issues']);
        const ids = async () => (await search(org, c.id, { sort: [{ number: 'asc' }] })).map((r) => r.id);
        const pass1 = await claimFor(c.id, 'issues', 'w1', T0, T1);
        assert.ok(pass1);
        await commit(pass1, [issue('a', 'open', 1), issue('b', 'open', 2), issue('c', 'open', 3)], 1);
        const next1 = {
          pass: 'incremental',
          run_after: T1,
          high_water: null,
          generation: 1,
          reconcile: true,
        } as const;
        assert.equal(await cs().finishPass(pass1, issues, next1, T0), true);

        // An incremental pass (same generation, no reconcile) that sees only `b` keeps the rest.
        const pass2 = await claimFor(c.id, 'issues', 'w1', T1, T2);
        assert.ok(pass2);
        await commit(pass2, [issue('b', 'closed', 2)], 1, T1, T2);
        const next2 = {
          pass: 'full',
          run_after: T2,
          high_water: null,
          generation: 1,
          reconcile: false,
        } as const;
        assert.equal(await cs().finishPass(pass2, issues, next2, T1), true);
        assert.deepEqual(await ids(), ['a', 'b', 'c']);

        // A full pass (generation 2, reconcile) that sees only `a` and `c` drops `b`.
        const pass3 = await claimFor(c.id, 'issues', 'w1', T2, T3);
        assert.ok(pass3);
        await commit(pass3, [issue('a', 'open', 1), issue('c', 'open', 3)], 2, T2, T3);
        const next3 = {
          pass: 'incremental',
          run_after: T4,
          high_water: null,
          generation: 2,
          reconcile: true,
        } as const;
        assert.equal(await cs().finishPass(pass3, issues, next3, T2), true);
        assert.deepEqual(await ids(), ['a', 'c']);
        assert.equal((await cs().states(org, c.id)).find((x) => x.entity === 'issues')?.entity_count, 2);
      });

      it('search never returns another organization’s records', async () => {
        const { org, c } = await setup(['issues']);
        const { org: orgB, c: cB } = await otherTenant();
        const jobA = await claimFor(c.id, 'issues');
        const jobB = await claimFor(cB.id, 'issues');
        assert.ok(jobA && jobB);
        await commit(jobA, [issue('a', 'open', 1)], 1);
        await commit(jobB, [issue('b', 'open', 2)], 1);
        assert.deepEqual(await search(org, c.id), [issue('a', 'open', 1)]);
        assert.deepEqual(await search(orgB, cB.id), [issue('b', 'open', 2)]);
        // Asking with another organization's connector id finds nothing.
        assert.deepEqual(await search(orgB, c.id), []);
        assert.deepEqual(await search(org, cB.id, { filter: { eq: { state: 'open' } } }), []);
      });
    });

    describe('restart and drop', () => {
      it('restartConnector schedules a new backfill due now, from scratch; the records stay', async () => {
        const { org, c } = await setup(['issues']);
        const job = await claimFor(c.id, 'issues', 'w1', T0, T1);
        assert.ok(job);
        await commit(job, [issue('a', 'open', 1)], 1);
        const next = {
          pass: 'incremental',
          run_after: T4,
          high_water: '{}',
          generation: 1,
          reconcile: true,
        } as const;
        assert.equal(await cs().finishPass(job, issues, next, T0), true);

        await cs().restartConnector(org, c.id, T2);
        const st = (await cs().states(org, c.id)).find((x) => x.entity === 'issues');
        assert.equal(st?.pass, 'backfill');
        assert.equal(st?.run_after, T2);
        const again = await claimFor(c.id, 'issues', 'w1', T2, T3);
        assert.equal(again?.pass, 'backfill');
        assert.equal(again?.checkpoint, null);
        assert.deepEqual(await search(org, c.id), [issue('a', 'open', 1)]);
      });

      it('restartConnector of another organization changes nothing', async () => {
        const { org, c } = await setup(['issues']);
        const { org: orgB } = await otherTenant();
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        const next = {
          pass: 'incremental',
          run_after: T4,
          high_water: null,
          generation: 1,
          reconcile: false,
        } as const;
        assert.equal(await cs().finishPass(job, issues, next, T0), true);
        const before = await cs().states(org, c.id);
        await cs().restartConnector(orgB, c.id, T2);
        assert.deepEqual(await cs().states(org, c.id), before);
      });

      it('dropConnector removes its records and states, and no other connector’s', async () => {
        const { org, ws, c } = await setup(['issues']);
        const d = await newConnector(s(), org, ws.id, { definition_id: def.id });
        await cs().initConnector(org, d.id, ['issues'], T0);
        const jobC = await claimFor(c.id, 'issues');
        const jobD = await claimFor(d.id, 'issues');
        assert.ok(jobC && jobD);
        await commit(jobC, [issue('a', 'open', 1)], 1);
        await commit(jobD, [issue('b', 'open', 2)], 1);

        await cs().dropConnector(org, c.id, layouts);
        assert.deepEqual(await cs().states(org, c.id), []);
        assert.equal((await cs().statesFor(org, [c.id, d.id])).get(c.id), undefined);
        assert.deepEqual(await search(org, c.id), []);
        assert.equal((await cs().states(org, d.id)).length, 1);
        assert.deepEqual(await search(org, d.id), [issue('b', 'open', 2)]);
        // Its syncs are gone: once both leases have expired, only d's sync is left to claim.
        const left = await cs().claim('w9', T2, T3);
        assert.equal(left?.connector_id, d.id);
        assert.equal(await cs().claim('w9', T2, T3), undefined);
      });

      it('dropConnector by another organization removes nothing', async () => {
        const { org, c } = await setup(['issues']);
        const { org: orgB } = await otherTenant();
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        await commit(job, [issue('a', 'open', 1)], 1);
        await cs().dropConnector(orgB, c.id, layouts);
        assert.equal((await cs().states(org, c.id)).length, 1);
        assert.deepEqual(await search(org, c.id), [issue('a', 'open', 1)]);
      });
    });

    describe('index layouts', () => {
      it('a layout seen again unchanged keeps its records; a changed one is rebuilt and its syncs start over', async () => {
        const { org, c } = await setup();
        const job = await claimFor(c.id, 'issues');
        assert.ok(job);
        assert.equal(await commit(job, [issue('a', 'open', 1)], 1), true);
        await cs().release(job, { run_after: T4, attempts: 0 }, T0);

        // A restart with the same definitions: nothing rebuilt, the index as it was.
        assert.deepEqual(await cs().ensureLayouts(layouts, T1), { rebuilt: [] });
        assert.deepEqual(
          (await search(org, c.id)).map((r) => r.id),
          ['a'],
        );

        // The definition now indexes one more field of issues: that table is made anew, labels' kept.
        const changed = definitionLayouts(
          parseDefinition(
            YAML.replace(
              '- { name: number, type: integer }',
              '- { name: number, type: integer }\n        - { name: title, type: string }',
            ),
            'contracty.yaml',
          ),
        );
        const newIssues = changed.find((l) => l.entity === 'issues') as EntityLayout;
        assert.notEqual(newIssues.hash, issues.hash);
        assert.deepEqual(await cs().ensureLayouts(changed, T2), { rebuilt: [newIssues.table] });
        const states = new Map((await cs().states(org, c.id)).map((st) => [st.entity, st]));
        assert.equal(states.get('issues')?.status, 'Initializing');
        assert.equal(states.get('issues')?.run_after, T2);
        assert.equal(states.get('labels')?.run_after, T0);
        assert.deepEqual(await cs().search(org, c.id, newIssues, { limit: 10, offset: 0 }), []);
        assert.deepEqual(await cs().ensureLayouts(changed, T3), { rebuilt: [] });
      });
    });
  });
}
