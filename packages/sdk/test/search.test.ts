// The search builder's output, compared with the DSL as README's Context Store section writes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type SearchFields, searchQuery } from '../src/index.ts';

type Issue = SearchFields['github']['issues'];

test("the README's search, built", () => {
  const q = searchQuery<Issue>()
    .where('state')
    .eq('open')
    .and('title')
    .fuzzy('login bug')
    .sort('updated_at', 'desc')
    .limit(10)
    .select('number', 'title', 'user.login');
  assert.deepEqual(q.toParams(), {
    query: {
      filter: { and: [{ eq: { state: 'open' } }, { fuzzy: { title: 'login bug' } }] },
      sort: [{ updated_at: 'desc' }],
    },
    limit: 10,
    fields: ['number', 'title', 'user.login'],
  });
  assert.deepEqual(JSON.parse(JSON.stringify(q)), q.toParams());
});

test('one condition is the filter itself; none is no filter', () => {
  assert.deepEqual(searchQuery<Issue>().toQuery(), {});
  assert.deepEqual(searchQuery<Issue>().toParams(), { query: {} });
  assert.deepEqual(searchQuery<Issue>().where('number').gte(10).toQuery(), {
    filter: { gte: { number: 10 } },
  });
});

test('every operator, in the shape the server parses', () => {
  const since = new Date('2026-01-01T00:00:00Z');
  const q = searchQuery<Issue>()
    .where('state')
    .neq('closed')
    .and('number')
    .gt(1)
    .and('number')
    .lt(100)
    .and('comments')
    .lte(5)
    .and('created_at')
    .gte(since)
    .and('state_reason')
    .in(['completed', 'reopened'])
    .and('user.login')
    .like('%bot')
    .and('body')
    .keyword('refund outage')
    .and('labels')
    .any((label) => label('name').eq('bug'))
    .or((f) => [f('milestone.title').eq('v1.1'), f.not(f('assignees').any((a) => a('login').eq('octocat')))])
    .not((f) => f.and(f('title').like('WIP%'), f('comments').eq(0)))
    .match({ eq: { id: 7 } })
    .sort('number')
    .sort('created_at', 'desc');
  assert.deepEqual(q.toQuery(), {
    filter: {
      and: [
        { neq: { state: 'closed' } },
        { gt: { number: 1 } },
        { lt: { number: 100 } },
        { lte: { comments: 5 } },
        { gte: { created_at: '2026-01-01T00:00:00.000Z' } },
        { in: { state_reason: ['completed', 'reopened'] } },
        { like: { 'user.login': '%bot' } },
        { keyword: { body: 'refund outage' } },
        { any: { labels: { eq: { name: 'bug' } } } },
        {
          or: [
            { eq: { 'milestone.title': 'v1.1' } },
            { not: { any: { assignees: { eq: { login: 'octocat' } } } } },
          ],
        },
        { not: { and: [{ like: { title: 'WIP%' } }, { eq: { comments: 0 } }] } },
        { eq: { id: 7 } },
      ],
    },
    sort: [{ number: 'asc' }, { created_at: 'desc' }],
  });
});

test('arrays of scalars take contains; queries are immutable', () => {
  const base = searchQuery<SearchFields['github']['repositories']>().where('archived').eq(false);
  const vip = base.and('topics').contains('vip');
  assert.deepEqual(base.toQuery(), { filter: { eq: { archived: false } } });
  assert.deepEqual(vip.toQuery(), {
    filter: { and: [{ eq: { archived: false } }, { contains: { topics: 'vip' } }] },
  });
});

test('without a field map every field and operator is allowed', () => {
  const q = searchQuery().where('anything.at.all').keyword('x').and('n').in([1, 2]);
  assert.deepEqual(q.filter, { and: [{ keyword: { 'anything.at.all': 'x' } }, { in: { n: [1, 2] } }] });
});
