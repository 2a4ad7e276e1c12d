// Where a sync pass goes after each page (src/core/sync/checkpoint.ts): one row per way a page can end, from
// the checkpoint the pass was at, the definition's rules and what the page held, to the checkpoint written
// with the page and why. The pass resumes from that checkpoint after a crash, so each row is also what a
// restarted process reads next.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SyncCheckpoint } from '../../../src/context-store/sync-state.ts';
import {
  type CheckpointRules,
  nextCheckpoint,
  type PageFacts,
  type Step,
  withHighs,
} from '../../../src/core/sync/checkpoint.ts';

const ms = (iso: string) => Date.parse(iso);
const T1 = '2024-01-01T00:00:00.000Z';
const T2 = '2024-01-02T00:00:00.000Z';
const T3 = '2024-01-03T00:00:00.000Z';

/** Two partitions (GitHub repositories), keyed in highs/bounds by their params as JSON. */
const A = { owner: 'o', repo: 'a' };
const B = { owner: 'o', repo: 'b' };
const KA = JSON.stringify(A);
const KB = JSON.stringify(B);

const cp = (over: Partial<SyncCheckpoint> = {}): SyncCheckpoint => ({
  partitions: [A, B],
  partition: 0,
  cursor: null,
  generation: 3,
  highs: {},
  bounds: {},
  start: null,
  until: null,
  read: 0,
  ...over,
});

const PLAIN: CheckpointRules = {
  incremental: false,
  tracksHigh: false,
  descending: false,
  lookbackSeconds: 0,
};
const ASC: CheckpointRules = { incremental: true, tracksHigh: true, descending: false, lookbackSeconds: 0 };
const CAPPED: CheckpointRules = { ...ASC, queryCap: 6 };
const DESC: CheckpointRules = { ...ASC, descending: true };

interface Row {
  name: string;
  rules: CheckpointRules;
  at: SyncCheckpoint;
  page: PageFacts;
  step: Step;
  /** The members of the next checkpoint that differ from `at`. */
  changes: Partial<SyncCheckpoint>;
}

const rows: Row[] = [
  // Cursor advance and partitions
  {
    name: 'a page with a next cursor: the next page of the same query',
    rules: PLAIN,
    at: cp(),
    page: { count: 2, next: 'c2' },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2 },
  },
  {
    name: 'the last page of a partition: the next partition, from its first page',
    rules: PLAIN,
    at: cp({ cursor: 'c2', read: 2 }),
    page: { count: 2, next: null },
    step: 'partition_done',
    changes: { partition: 1, cursor: null, read: 0 },
  },
  {
    name: 'the last page of the last partition: past the end (the pass is complete)',
    rules: PLAIN,
    at: cp({ partition: 1, cursor: 'c9' }),
    page: { count: 1, next: null },
    step: 'partition_done',
    changes: { partition: 2, cursor: null, read: 0 },
  },
  {
    name: 'an empty page without a next page: the partition is done',
    rules: ASC,
    at: cp(),
    page: { count: 0, next: null },
    step: 'partition_done',
    changes: { partition: 1, cursor: null, read: 0 },
  },
  {
    name: 'an empty page the provider says is not the last: the next page is read',
    rules: ASC,
    at: cp(),
    page: { count: 0, next: 'c2' },
    step: 'next_page',
    changes: { cursor: 'c2', read: 0 },
  },
  {
    name: 'a resumed checkpoint written before `read` existed counts from 0',
    rules: CAPPED,
    at: { ...cp({ cursor: 'c5' }), read: undefined },
    page: { count: 2, next: 'c6', newest: ms(T1), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c6', read: 2, highs: { [KA]: T1 } },
  },
  // High water
  {
    name: 'the first high of a partition is the newest record read',
    rules: ASC,
    at: cp(),
    page: { count: 2, next: 'c2', newest: ms(T2), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2, highs: { [KA]: T2 } },
  },
  {
    name: 'a newer record moves the high; other partitions keep theirs',
    rules: ASC,
    at: cp({ highs: { [KA]: T1, [KB]: T1 } }),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T2) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2, highs: { [KA]: T3, [KB]: T1 } },
  },
  {
    name: 'a record as new as the high leaves it',
    rules: ASC,
    at: cp({ highs: { [KA]: T2 } }),
    page: { count: 1, next: 'c2', newest: ms(T2), oldest: ms(T2) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 1 },
  },
  {
    name: 'older records leave the high',
    rules: ASC,
    at: cp({ highs: { [KA]: T3 } }),
    page: { count: 2, next: null, newest: ms(T2), oldest: ms(T1) },
    step: 'partition_done',
    changes: { partition: 1, cursor: null, read: 0 },
  },
  {
    name: 'a high stored in another ISO form is rewritten in the one the pass writes',
    rules: ASC,
    at: cp({ highs: { [KA]: '2024-01-02T00:00:00Z' } }),
    page: { count: 0, next: null },
    step: 'partition_done',
    changes: { partition: 1, cursor: null, read: 0, highs: { [KA]: T2 } },
  },
  {
    name: 'the high is kept per partition: the second partition has its own',
    rules: ASC,
    at: cp({ partition: 1, highs: { [KA]: T3 } }),
    page: { count: 1, next: 'c2', newest: ms(T1), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 1, highs: { [KA]: T3, [KB]: T1 } },
  },
  {
    name: 'an entity without an incremental field tracks no high',
    rules: PLAIN,
    at: cp(),
    page: { count: 2, next: 'c2', newest: ms(T2), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2 },
  },
  // query_cap (6 records per query; pages of 2)
  {
    name: 'below the cap: the next page of the query',
    rules: CAPPED,
    at: cp({ cursor: 'c1', read: 2 }),
    page: { count: 2, next: 'c2', newest: ms(T2), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 4, highs: { [KA]: T2 } },
  },
  {
    name: 'the next page would pass the cap: a new query from the largest value read',
    rules: CAPPED,
    at: cp({ cursor: 'c2', read: 4, highs: { [KA]: T2 }, bounds: { [KA]: T1 } }),
    page: { count: 2, next: 'c3', newest: ms(T3), oldest: ms(T2) },
    step: 'requery',
    changes: { cursor: null, read: 0, highs: { [KA]: T3 }, bounds: { [KA]: T3 } },
  },
  {
    name: 'at the cap without a high past the bound: reading on is all a new query could do',
    rules: CAPPED,
    at: cp({ cursor: 'c2', read: 4, highs: { [KA]: T2 }, bounds: { [KA]: T2 } }),
    page: { count: 2, next: 'c3', newest: ms(T2), oldest: ms(T2) },
    step: 'next_page',
    changes: { cursor: 'c3', read: 6 },
  },
  {
    name: 'at the cap on the last page: the partition is done, no new query',
    rules: CAPPED,
    at: cp({ cursor: 'c2', read: 4, bounds: { [KA]: T1 } }),
    page: { count: 2, next: null, newest: ms(T3), oldest: ms(T2) },
    step: 'partition_done',
    changes: { partition: 1, cursor: null, read: 0, highs: { [KA]: T3 } },
  },
  {
    name: 'a cap without an incremental param to restart from does not restart',
    rules: { ...PLAIN, queryCap: 6 },
    at: cp({ cursor: 'c2', read: 4 }),
    page: { count: 2, next: 'c3' },
    step: 'next_page',
    changes: { cursor: 'c3', read: 6 },
  },
  // A list read newest first stops at the bound
  {
    name: 'descending, every record newer than the bound: the next page',
    rules: DESC,
    at: cp({ bounds: { [KA]: T1 } }),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T2) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2, highs: { [KA]: T3 } },
  },
  {
    name: 'descending, a record older than the bound: the partition stops there',
    rules: DESC,
    at: cp({ bounds: { [KA]: T2 }, highs: { [KA]: T2 } }),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T1) },
    step: 'bound_reached',
    changes: { partition: 1, cursor: null, read: 0, highs: { [KA]: T3 } },
  },
  {
    name: 'descending, the oldest record at the bound itself: the bound is inclusive, read on',
    rules: DESC,
    at: cp({ bounds: { [KA]: T2 } }),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T2) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2, highs: { [KA]: T3 } },
  },
  {
    name: 'descending, the lookback moves the bound back: a record within it is still read',
    rules: { ...DESC, lookbackSeconds: 86_400 },
    at: cp({ bounds: { [KA]: T2 } }),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2, highs: { [KA]: T3 } },
  },
  {
    name: 'descending, without a bound of its own the partition stops at the configured start',
    rules: DESC,
    at: cp({ start: T2 }),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T1) },
    step: 'bound_reached',
    changes: { partition: 1, cursor: null, read: 0, highs: { [KA]: T3 } },
  },
  {
    name: 'descending without any bound (a backfill): every page is read',
    rules: DESC,
    at: cp(),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2, highs: { [KA]: T3 } },
  },
  {
    name: 'ascending lists never stop at the bound (the provider filters them)',
    rules: ASC,
    at: cp({ bounds: { [KA]: T2 } }),
    page: { count: 2, next: 'c2', newest: ms(T3), oldest: ms(T1) },
    step: 'next_page',
    changes: { cursor: 'c2', read: 2, highs: { [KA]: T3 } },
  },
];

describe('nextCheckpoint: where a pass goes after a page', () => {
  for (const row of rows) {
    it(row.name, () => {
      const before = structuredClone(row.at);
      const { checkpoint, step } = nextCheckpoint(row.rules, row.at, row.page);
      assert.equal(step, row.step);
      assert.deepEqual(checkpoint, { ...row.at, ...row.changes });
      assert.deepEqual(row.at, before, 'the checkpoint it started from is left as it was');
    });
  }
});

describe('withHighs: highs the store found in pages given as bytes', () => {
  const rows: Array<{
    name: string;
    highs: Record<string, string>;
    found: Record<string, string>;
    changes: Record<string, string>;
  }> = [
    {
      name: 'a later high replaces the checkpoint’s',
      highs: { [KA]: T1 },
      found: { [KA]: T2 },
      changes: { [KA]: T2 },
    },
    { name: 'an earlier one is ignored', highs: { [KA]: T2 }, found: { [KA]: T1 }, changes: { [KA]: T2 } },
    {
      name: 'an equal one is ignored',
      highs: { [KA]: T2 },
      found: { [KA]: '2024-01-02T00:00:00Z' },
      changes: { [KA]: T2 },
    },
    {
      name: 'a partition without a high takes it',
      highs: { [KA]: T2 },
      found: { [KB]: T1 },
      changes: { [KA]: T2, [KB]: T1 },
    },
    { name: 'nothing found leaves the highs', highs: { [KA]: T2 }, found: {}, changes: { [KA]: T2 } },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(withHighs(cp({ highs: row.highs }), row.found).highs, row.changes);
    });
  }
});
