// How a sync pass writes its pages (src/core/sync/batch-writer.ts), against a store that records every write and
// finishes each one when the test says so, on a fake clock: when a batch is written (the entity's first page,
// BATCH_RECORDS records, BATCH_BYTES bytes, a second since the last write, the pass's last page), that writes in
// flight finish in the order they were made, that a lost lease ends the pass, and what the observer is told.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EntityLayout } from '../../../src/context-store/layout.ts';
import type { ContextStoreObserver } from '../../../src/core/context-store-observer.ts';
import {
  BATCH_BYTES,
  BATCH_RECORDS,
  BatchWriter,
  LeaseLost,
  WRITES_IN_FLIGHT,
  type WritablePage,
} from '../../../src/core/sync/batch-writer.ts';
import type {
  EncodedRecords,
  EntitySyncStatus,
  PageCommit,
  SyncCheckpoint,
  SyncJob,
} from '../../../src/store/port.ts';
import { FakeClock } from '../../helpers/fake-clock.ts';

const START = Date.parse('2026-03-02T10:00:00Z');
const LEASE_MS = 60_000;
const KEY = '{}';

interface Commit {
  pages: EncodedRecords[];
  checkpoint: SyncCheckpoint;
  state: { status: EntitySyncStatus; ready_for_search: boolean; count: boolean };
  now: string;
  leaseUntil: string;
  finish: (done: Partial<PageCommit>) => void;
  fail: (err: Error) => void;
}

/** A store whose commits stay pending until the test finishes them (`finish`), in any order. */
function fakeStore() {
  const commits: Commit[] = [];
  const encoded: Array<{ kind: 'records' | 'bytes'; texts?: readonly string[] | undefined; high?: unknown }> =
    [];
  const store = {
    encode(
      _c: string,
      _l: EntityLayout,
      records: unknown[],
      _g: number,
      _s: string,
      texts?: readonly string[],
    ) {
      encoded.push({ kind: 'records', texts });
      return { count: records.length, rows: records };
    },
    encodeBytes(
      _c: string,
      _l: EntityLayout,
      list: readonly Buffer[],
      _g: number,
      _s: string,
      high?: unknown,
    ) {
      encoded.push({ kind: 'bytes', high });
      return { count: 0, bytes: list.reduce((n, b) => n + b.length, 0), rows: list };
    },
    commitPage(
      _job: SyncJob,
      page: { pages: EncodedRecords[] },
      checkpoint: SyncCheckpoint,
      state: Commit['state'],
      now: string,
      leaseUntil: string,
    ): Promise<PageCommit> {
      return new Promise((resolve, reject) => {
        const records = page.pages.reduce((n, p) => n + p.count, 0);
        commits.push({
          pages: page.pages,
          checkpoint,
          state,
          now,
          leaseUntil,
          finish: (done) => resolve({ held: true, records, highs: {}, ...done }),
          fail: reject,
        });
      });
    },
  };
  return { store, commits, encoded };
}

const job = (over: Partial<SyncJob> = {}): SyncJob =>
  ({
    organization_id: 'org',
    connector_id: 'conn',
    entity: 'issues',
    ready_for_search: true,
    backfilled_at: null,
    ...over,
  }) as SyncJob;

const checkpoint = (partition: number, highs: Record<string, string> = {}): SyncCheckpoint => ({
  partitions: [{}],
  partition,
  cursor: `c${partition}`,
  generation: 1,
  highs,
  bounds: {},
  start: null,
});

const records = (n: number): WritablePage => ({
  key: KEY,
  records: Array.from({ length: n }, (_, i) => ({ id: i })),
  texts: () => undefined,
});
const bytes = (n: number): WritablePage => ({
  key: KEY,
  records: [],
  bytes: [Buffer.alloc(n)],
  texts: () => undefined,
});

function writer(over: { job?: SyncJob; observer?: ContextStoreObserver; highField?: string } = {}) {
  const clock = new FakeClock(() => START);
  const fake = fakeStore();
  const w = new BatchWriter({
    store: fake.store,
    job: over.job ?? job(),
    layout: { entity: 'issues' } as EntityLayout,
    connectorType: 'github',
    status: 'Updating',
    highField: over.highField,
    leaseMs: LEASE_MS,
    now: () => new Date(clock.now()),
    observer: over.observer,
  });
  return { w, clock, ...fake };
}

/** Lets every settled promise's continuations run (no timers involved). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('batch writer: when a batch is written', () => {
  it('writes the first page of an entity not yet searchable at once, then batches', async () => {
    const { w, commits } = writer({ job: job({ ready_for_search: false }) });
    await w.add(records(10), checkpoint(1), false);
    assert.equal(commits.length, 1, 'the first page makes the entity searchable (Preview) at once');
    assert.equal(commits[0]?.state.ready_for_search, true);
    await w.add(records(10), checkpoint(2), false);
    assert.equal(commits.length, 1, 'later pages wait for a batch');
  });

  it(`writes once a batch holds ${BATCH_RECORDS} records, with the checkpoint after its last page`, async () => {
    const { w, commits } = writer();
    const page = BATCH_RECORDS / 4;
    for (let i = 1; i <= 3; i++) await w.add(records(page), checkpoint(i), false);
    assert.equal(commits.length, 0);
    await w.add(records(page), checkpoint(4), false);
    assert.equal(commits.length, 1);
    assert.equal(commits[0]?.pages.length, 4);
    assert.equal(commits[0]?.checkpoint.partition, 4);
  });

  it(`writes pages given as bytes once they hold ${BATCH_BYTES} bytes`, async () => {
    const { w, commits, encoded } = writer({ highField: 'updated_at' });
    const size = BATCH_BYTES / 4;
    for (let i = 1; i <= 3; i++) await w.add(bytes(size), checkpoint(i), false);
    assert.equal(commits.length, 0, 'a page as bytes counts no records');
    await w.add(bytes(size), checkpoint(4), false);
    assert.equal(commits.length, 1);
    assert.deepEqual(encoded[0], { kind: 'bytes', high: { field: 'updated_at', key: KEY } });
  });

  it('writes a batch a second after the last write, by the clock', async () => {
    const { w, clock, commits } = writer();
    await w.add(records(1), checkpoint(1), false);
    clock.advance(999);
    await w.add(records(1), checkpoint(2), false);
    assert.equal(commits.length, 0);
    clock.advance(1);
    await w.add(records(1), checkpoint(3), false);
    assert.equal(commits.length, 1);
    assert.equal(commits[0]?.pages.length, 3);
    assert.equal(commits[0]?.now, new Date(START + 1000).toISOString());
    assert.equal(commits[0]?.leaseUntil, new Date(START + 1000 + LEASE_MS).toISOString());
  });

  it('writes the last page of the pass at once, and brings the entity count up to date with it', async () => {
    const { w, clock, commits } = writer();
    await w.add(records(BATCH_RECORDS), checkpoint(1), false);
    assert.equal(commits[0]?.state.count, true, 'the first write of a pass counts');
    clock.advance(500);
    await w.add(records(BATCH_RECORDS), checkpoint(2), false);
    assert.equal(commits[1]?.state.count, false, 'not again within 2 s');
    clock.advance(500);
    await w.add(records(1), checkpoint(3), true);
    assert.equal(commits.length, 3);
    assert.equal(commits[2]?.state.count, true, 'the last write of the pass counts');
    assert.equal(commits[2]?.state.status, 'Updating');
  });

  it("keeps each record's JSON as the provider wrote it", async () => {
    const { w, encoded } = writer();
    await w.add({ ...records(1), texts: () => ['{"id":0}'] }, checkpoint(1), true);
    assert.deepEqual(encoded, [{ kind: 'records', texts: ['{"id":0}'] }]);
  });
});

describe('batch writer: writes in flight', () => {
  it(`keeps ${WRITES_IN_FLIGHT} batches in flight and waits for the oldest, in order, before another`, async () => {
    const { w, commits } = writer();
    for (let i = 1; i <= WRITES_IN_FLIGHT; i++) await w.add(records(BATCH_RECORDS), checkpoint(i), false);
    assert.equal(commits.length, WRITES_IN_FLIGHT, 'none waited for');
    let added = false;
    const next = w.add(records(BATCH_RECORDS), checkpoint(9), false).then((cp) => {
      added = true;
      return cp;
    });
    // A later write finishing first does not let the next one start: they are taken in order.
    commits[1]?.finish({ highs: { [KEY]: '2024-02-01T00:00:00.000Z' } });
    await turn();
    assert.equal(added, false);
    assert.equal(commits.length, WRITES_IN_FLIGHT);
    commits[0]?.finish({ highs: { [KEY]: '2024-01-01T00:00:00.000Z' } });
    const cp = await next;
    assert.equal(commits.length, WRITES_IN_FLIGHT + 1);
    assert.deepEqual(cp.highs, { [KEY]: '2024-01-01T00:00:00.000Z' }, 'the finished write’s highs join');
    assert.deepEqual(commits[WRITES_IN_FLIGHT]?.checkpoint.highs, cp.highs, 'and are written with the batch');
    // Draining takes the rest in order: the second write's later high joins too.
    for (const c of commits.slice(2)) c.finish({});
    const drained = await w.drain(cp);
    assert.deepEqual(drained.highs, { [KEY]: '2024-02-01T00:00:00.000Z' });
  });

  it('a lost lease ends the pass: LeaseLost, and nothing more is written', async () => {
    const { w, commits } = writer();
    for (let i = 1; i <= WRITES_IN_FLIGHT; i++) await w.add(records(BATCH_RECORDS), checkpoint(i), false);
    commits[0]?.finish({ held: false, records: 0 });
    await assert.rejects(w.add(records(BATCH_RECORDS), checkpoint(9), false), LeaseLost);
    assert.equal(commits.length, WRITES_IN_FLIGHT, 'the batch after the lost lease is not written');
    for (const c of commits.slice(1)) c.finish({ held: false, records: 0 });
    await w.settle();
  });

  it('a lease lost mid-batch surfaces when the pass drains', async () => {
    const { w, commits } = writer();
    await w.add(records(BATCH_RECORDS), checkpoint(1), false);
    await w.add(records(10), checkpoint(2), false);
    commits[0]?.finish({ held: false, records: 0 });
    await assert.rejects(w.drain(checkpoint(2)), LeaseLost);
  });

  it('a failed write fails the pass once awaited, and settle waits for the others', async () => {
    const { w, commits } = writer();
    await w.add(records(BATCH_RECORDS), checkpoint(1), false);
    await w.add(records(BATCH_RECORDS), checkpoint(2), false);
    commits[0]?.fail(new Error('disk full'));
    await assert.rejects(w.drain(checkpoint(2)), /disk full/);
    let settled = false;
    const settling = w.settle().then(() => {
      settled = true;
    });
    await turn();
    assert.equal(settled, false, 'the second write is still under way');
    commits[1]?.finish({});
    await settling;
  });
});

describe('batch writer: observer', () => {
  it('is told of the records of each write that held the lease, and of no other', async () => {
    const told: Array<[string, string, number]> = [];
    const observer: ContextStoreObserver = {
      recordsWritten: (type, entity, count) => told.push([type, entity, count]),
      syncPass: () => undefined,
      search: () => undefined,
    };
    const { w, commits } = writer({ observer });
    await w.add(records(BATCH_RECORDS), checkpoint(1), false);
    await w.add(records(7), checkpoint(2), true);
    assert.deepEqual(told, [], 'nothing before a write is done');
    commits[0]?.finish({});
    commits[1]?.finish({ held: false, records: 0 });
    await assert.rejects(w.drain(checkpoint(2)), LeaseLost);
    assert.deepEqual(told, [['github', 'issues', BATCH_RECORDS]]);
  });
});
