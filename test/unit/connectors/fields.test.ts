import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyFieldSelection } from '../../../src/connectors/runtime/fields.ts';

const issue = {
  id: 1,
  title: 'Bug',
  body: 'long text',
  user: { login: 'octocat', id: 9, site_admin: false },
  labels: [
    { name: 'bug', color: 'red' },
    { name: 'ui', color: 'blue' },
  ],
  milestone: null,
};

describe('applyFieldSelection', () => {
  it('returns the value unchanged without selection', () => {
    assert.equal(applyFieldSelection(issue, null, undefined), issue);
    assert.equal(applyFieldSelection(issue, [], []), issue);
  });

  it('keeps only selected dot paths, through arrays, on each element of a list', () => {
    const out = applyFieldSelection(
      [issue, issue],
      ['id', 'user.login', 'labels.name', 'milestone.title', 'nope'],
    );
    const one = {
      id: 1,
      user: { login: 'octocat' },
      labels: [{ name: 'bug' }, { name: 'ui' }],
      milestone: null,
    };
    assert.deepEqual(out, [one, one]);
  });

  it('drops excluded paths without touching the input', () => {
    const out = applyFieldSelection(issue, undefined, ['body', 'user.id', 'labels.color']);
    assert.deepEqual(out, {
      id: 1,
      title: 'Bug',
      user: { login: 'octocat', site_admin: false },
      labels: [{ name: 'bug' }, { name: 'ui' }],
      milestone: null,
    });
    assert.equal(issue.body, 'long text');
    assert.equal(issue.user.id, 9);
  });

  it('lets select win over exclude for the same path or an ancestor, but applies narrower excludes', () => {
    assert.deepEqual(applyFieldSelection(issue, ['title', 'user.login'], ['title', 'user']), {
      title: 'Bug',
      user: { login: 'octocat' },
    });
    assert.deepEqual(applyFieldSelection(issue, ['user'], ['user.id']), {
      user: { login: 'octocat', site_admin: false },
    });
  });

  it('a whole-object selection wins over a narrower one', () => {
    assert.deepEqual(applyFieldSelection(issue, ['user.login', 'user'], null), { user: issue.user });
    assert.deepEqual(applyFieldSelection(issue, ['user', 'user.login'], null), { user: issue.user });
  });

  it('leaves scalars and null results alone', () => {
    assert.equal(applyFieldSelection(null, ['id'], null), null);
    assert.equal(applyFieldSelection('x', ['id'], null), 'x');
  });
});
