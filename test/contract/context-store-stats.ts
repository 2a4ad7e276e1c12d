// The store contract: ContextStoreRepo.stats (see store-contract.ts), through the port only: syncs of every
// organization aggregated per connector type and entity, due syncs counted only where a worker may claim them,
// and no tenant's id in the answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDefinition } from '../../src/connectors/load.ts';
import { definitionLayouts, type EntityLayout } from '../../src/context-store/layout.ts';
import type { SyncJob } from '../../src/store/port.ts';
import { indexedEntityYaml, testDefinitionYaml } from '../helpers/definition-yaml.ts';
import { freshStore, newConnector, newOrg, newWorkspace, type OpenedStore, T0, T1 } from './fixtures.ts';

// Due times before T0, in this order: the paused sync, a's issues, b's labels.
const PAUSED_DUE = '2023-12-31T00:00:00.000Z';
const A_DUE = '2023-12-31T01:00:00.000Z';
const B_DUE = '2023-12-31T02:00:00.000Z';
const T4 = '2024-01-05T00:00:00.000Z';

const def = parseDefinition(
  testDefinitionYaml(
    '0b6f3c2a-7d1e-4f5a-9c8b-2e4d6f8a1c3e',
    'statsy',
    indexedEntityYaml('issues', [['id', 'string']]) + indexedEntityYaml('labels', [['id', 'string']]),
  ),
  'statsy.yaml',
);
const layouts = definitionLayouts(def);
const issues = layouts.find((l) => l.entity === 'issues') as EntityLayout;

export function contextStoreStatsContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: context store stats`, () => {
    const s = freshStore(open);
    const cs = () => s().contextStore;

    /** A connector (fixtures: connector type `github`) in a new organization, each entity's sync due at its time. */
    async function connector(starts: Record<string, string>, workspace: { status?: 'inactive' } = {}) {
      const org = await newOrg(s());
      const ws = await newWorkspace(s(), org, 'Main', workspace);
      const c = await newConnector(s(), org, ws.id, { definition_id: def.id });
      for (const [entity, at] of Object.entries(starts)) await cs().initConnector(org, c.id, [entity], at);
      return { org, ws, c };
    }

    /** The next claim (the earliest due sync a worker may run) is `connectorId`'s `entity`. */
    async function claimNext(connectorId: string, entity: string): Promise<SyncJob> {
      const job = await cs().claim('w1', T0, T1);
      assert.equal(`${job?.connector_id}/${job?.entity}`, `${connectorId}/${entity}`);
      return job as SyncJob;
    }

    it('an empty store has none', async () => {
      await cs().ensureLayouts(layouts, T0);
      assert.deepEqual(await cs().stats(T1), []);
    });

    it('aggregates every organization’s syncs per connector type and entity, naming no tenant', async () => {
      await cs().ensureLayouts(layouts, T0);
      const a = await connector({ issues: A_DUE, labels: T0 });
      const b = await connector({ issues: T0, labels: B_DUE });
      // Due before the others, but its workspace is paused: no worker may run it, so it is not overdue.
      const paused = await connector({ issues: PAUSED_DUE }, { status: 'inactive' });

      assert.deepEqual(await cs().stats(T1), [
        {
          connector_type: 'github',
          entity: 'issues',
          syncs: { Initializing: 3 },
          records: 0,
          oldest_due_at: A_DUE,
        },
        {
          connector_type: 'github',
          entity: 'labels',
          syncs: { Initializing: 2 },
          records: 0,
          oldest_due_at: B_DUE,
        },
      ]);

      // a's issues: three records written and the pass finished, next due at T4.
      const job = await claimNext(a.c.id, 'issues');
      const page = cs().encode(a.c.id, issues, [{ id: '1' }, { id: '2' }, { id: '3' }], 1, T0);
      const state = { status: 'Building Preview', ready_for_search: true, count: true } as const;
      const checkpoint = {
        partitions: [{}],
        partition: 1,
        cursor: null,
        generation: 1,
        highs: {},
        bounds: {},
      };
      assert.equal(
        (
          await cs().commitPage(
            job,
            { layout: issues, pages: [page] },
            { ...checkpoint, start: null },
            state,
            T0,
            T1,
          )
        ).held,
        true,
      );
      const next = {
        pass: 'incremental',
        run_after: T4,
        high_water: null,
        generation: 1,
        reconcile: true,
      } as const;
      assert.equal(await cs().finishPass(job, issues, next, T0), true);
      // b's labels failed (due again at T4).
      const failed = await claimNext(b.c.id, 'labels');
      await cs().release(failed, { run_after: T4, attempts: 0, status: 'Failed', last_error: 'boom' }, T0);

      const stats = await cs().stats(T1);
      assert.deepEqual(stats, [
        {
          connector_type: 'github',
          entity: 'issues',
          syncs: { Initializing: 2, Ready: 1 },
          records: 3,
          oldest_due_at: T0,
        },
        {
          connector_type: 'github',
          entity: 'labels',
          syncs: { Failed: 1, Initializing: 1 },
          records: 0,
          oldest_due_at: T0,
        },
      ]);
      const text = JSON.stringify(stats);
      for (const id of [a.org, b.org, paused.org, a.c.id, b.c.id, paused.c.id, a.ws.id, paused.ws.id])
        assert.ok(!text.includes(id), `stats name ${id}`);

      // Before anything claimable is due: the paused sync, due already, does not count.
      const early = await cs().stats('2023-12-31T00:30:00.000Z');
      assert.deepEqual(
        early.map((e) => [e.entity, e.oldest_due_at]),
        [
          ['issues', null],
          ['labels', null],
        ],
      );
      // Once a's dropped, its syncs and records are gone from the counts.
      await cs().dropConnector(a.org, a.c.id, layouts);
      const dropped = await cs().stats(T1);
      assert.deepEqual(
        dropped.map((e) => [e.entity, e.syncs, e.records]),
        [
          ['issues', { Initializing: 2 }, 0],
          ['labels', { Failed: 1 }, 0],
        ],
      );
    });
  });
}
