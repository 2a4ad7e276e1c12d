// Readiness per entity, and the connector-level summary of its entities' states (src/context-store/status.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectorStatus, failedEntities, searchable } from '../../../src/context-store/status.ts';
import type { EntitySyncState, EntitySyncStatus } from '../../../src/context-store/sync-state.ts';

function state(
  entity: string,
  status: EntitySyncStatus,
  opts: { ready?: boolean; backfilled?: boolean; error?: string } = {},
): EntitySyncState {
  return {
    connector_id: 'c1',
    entity,
    status,
    ready_for_search: opts.ready ?? false,
    entity_count: opts.ready ? 1 : 0,
    last_error: opts.error ?? null,
    updated_at: null,
    backfilled_at: opts.backfilled ? '2026-03-02T10:00:00.000Z' : null,
    last_full_at: null,
    pass: 'backfill',
    run_after: '2026-03-02T10:00:00.000Z',
    generation: 1,
    high_water: null,
  };
}

const ready = (e: string) => state(e, 'Ready', { ready: true, backfilled: true });
const fetching = (e: string) => state(e, 'Building Preview');
const retrying = (e: string) => state(e, 'Building Preview', { error: 'UPSTREAM_UNAVAILABLE: 502' });
const refused = (e: string) => state(e, 'Failed', { error: 'UPSTREAM_NOT_FOUND: 404' });

describe('context store readiness', () => {
  it('an entity is searchable once it holds its first page, whatever its siblings do', () => {
    const siblings = [retrying('labels'), refused('pull_requests'), fetching('commits')];
    const issues = state('issues', 'Preview', { ready: true });
    assert.equal(searchable(issues), true);
    assert.equal(connectorStatus([issues, ...siblings]), 'Preview');
    for (const s of siblings) assert.equal(searchable(s), false, s.entity);
    assert.equal(searchable(undefined), false);
    // A failed entity keeps what it stored searchable.
    assert.equal(searchable(state('labels', 'Failed', { ready: true, error: 'x' })), true);
  });

  const SUMMARIES: Array<[string, EntitySyncState[], ReturnType<typeof connectorStatus>]> = [
    ['no entity indexed', [], null],
    ['nothing fetched', [state('a', 'Initializing'), state('b', 'Initializing')], 'Loading'],
    ['first pages on their way', [fetching('a'), state('b', 'Initializing')], 'Building Preview'],
    ['one entity retrying, none stored', [retrying('a'), state('b', 'Initializing')], 'Building Preview'],
    [
      'one entity searchable, one still fetching',
      [state('a', 'Preview', { ready: true }), fetching('b')],
      'Preview',
    ],
    ['every backfill done', [ready('a'), ready('b')], 'Ready'],
    ['the refused entities are left out', [ready('a'), refused('b'), refused('c')], 'Ready'],
    ['a refused entity beside one retrying', [refused('a'), retrying('b')], 'Building Preview'],
    ['every entity refused', [refused('a'), refused('b')], 'Failed'],
    [
      'a failed refresh of a stored entity is not Ready',
      [ready('a'), state('b', 'Failed', { ready: true, error: 'x' })],
      'Preview',
    ],
  ];
  for (const [name, states, expected] of SUMMARIES) {
    it(`connector status: ${name} → ${expected}`, () => assert.equal(connectorStatus(states), expected));
  }

  it('the summary names the failed entities and why', () => {
    assert.deepEqual(failedEntities([ready('a'), refused('b'), retrying('c')]), [
      { entity: 'b', reason: 'UPSTREAM_NOT_FOUND: 404' },
    ]);
  });
});
