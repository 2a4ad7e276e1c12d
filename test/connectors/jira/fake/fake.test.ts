// The Jira fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JIRA_FAKE_API_TOKEN, JIRA_FAKE_EMAIL, type JiraFake, startJiraFake } from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const BASIC = `Basic ${Buffer.from(`${JIRA_FAKE_EMAIL}:${JIRA_FAKE_API_TOKEN}`).toString('base64')}`;
const doc = (text: string) => ({
  type: 'doc',
  version: 1,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

describe('Jira fake', () => {
  let fake: JiraFake;
  let clock = Date.UTC(2025, 0, 10, 12, 0, 0);

  before(async () => {
    fake = await startJiraFake({ now: () => clock });
  });
  after(() => fake.close());

  const call = async (method: string, path: string, body?: unknown, authorization: string | null = BASIC) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (authorization !== null) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let json: Json = {};
    try {
      json = text === '' ? {} : (JSON.parse(text) as Json);
    } catch {
      json = { text };
    }
    return { status: res.status, headers: res.headers, json, text };
  };

  it('refuses missing or wrong Basic credentials with 401 text/html, and /myself answers the owner', async () => {
    for (const auth of [
      null,
      'Basic Zm9vOmJhcg==',
      `Basic ${Buffer.from(`${JIRA_FAKE_EMAIL}:nope`).toString('base64')}`,
    ]) {
      const res = await call('GET', '/myself', undefined, auth);
      assert.equal(res.status, 401, String(auth));
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.text, 'Client must be authenticated to access this resource.');
    }
    const me = await call('GET', '/myself?expand=groups');
    assert.equal(me.status, 200);
    assert.equal(me.json.emailAddress, JIRA_FAKE_EMAIL);
    assert.equal(me.json.accountType, 'atlassian');
    assert.equal(me.json.groups.items.length, me.json.groups.size);
  });

  it('follows the enhanced JQL search across pages by nextPageToken, ordered by updated', async () => {
    const eng = fake.data.issues.filter((i) => i.key.startsWith('ENG-')).length;
    const jql = encodeURIComponent('project = ENG ORDER BY updated ASC');
    let token: string | undefined;
    const seen: Json[] = [];
    let pages = 0;
    do {
      const q = `/search/jql?jql=${jql}&maxResults=10&fields=summary,updated${token ? `&nextPageToken=${encodeURIComponent(token)}` : ''}`;
      const page = await call('GET', q);
      assert.equal(page.status, 200);
      seen.push(...page.json.issues);
      token = page.json.nextPageToken;
      assert.equal(page.json.isLast, token === undefined);
      pages++;
    } while (token !== undefined);
    assert.equal(seen.length, eng);
    assert.equal(pages, Math.ceil(eng / 10));
    const updated = seen.map((i) => Date.parse(i.fields.updated.replace('+0000', 'Z')));
    assert.deepEqual(
      updated,
      [...updated].sort((a, b) => a - b),
    );
    assert.deepEqual(Object.keys(seen[0]?.fields ?? {}).sort(), ['summary', 'updated']);
    // Without `fields` the enhanced search answers ids only.
    const ids = await call('GET', `/search/jql?jql=${jql}&maxResults=2`);
    assert.deepEqual(Object.keys(ids.json.issues[0]), ['id']);
  });

  it('filters by updated >= in POST /search/jql, and refuses unknown or unbounded JQL with Jira messages', async () => {
    const res = await call('POST', '/search/jql', {
      jql: 'project = OPS AND updated >= "2024-01-20 00:00" ORDER BY updated DESC',
      fields: ['updated', 'project'],
      maxResults: 100,
    });
    assert.equal(res.status, 200);
    const cutoff = Date.UTC(2024, 0, 20);
    const expected = fake.data.issues.filter((i) => i.key.startsWith('OPS-') && i.updated >= cutoff).length;
    assert.ok(expected > 0 && expected < fake.data.issues.length);
    assert.equal(res.json.issues.length, expected);
    assert.ok(res.json.issues.every((i: Json) => i.fields.project.key === 'OPS'));
    const bad = await call('GET', `/search/jql?jql=${encodeURIComponent('frobnicate = 3')}`);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json, {
      errorMessages: ["Field 'frobnicate' does not exist or you do not have permission to view it."],
      errors: {},
    });
    const unbounded = await call('GET', `/search/jql?jql=${encodeURIComponent('order by key desc')}`);
    assert.equal(unbounded.status, 400);
    assert.match(unbounded.json.errorMessages[0], /^Unbounded JQL queries are not allowed/);
    const date = await call('GET', `/search/jql?jql=${encodeURIComponent('updated >= "2024-13-45"')}`);
    assert.match(date.json.errorMessages[0], /^Date value '2024-13-45' for field 'updated' is invalid/);
  });

  it('gets an issue with all fields: ADF description, comment and worklog pages, attachment content URLs', async () => {
    const res = await call('GET', '/issue/eng-1');
    assert.equal(res.status, 200);
    assert.equal(res.json.key, 'ENG-1');
    const f = res.json.fields;
    assert.equal(f.description.type, 'doc');
    assert.equal(f.comment.total, 12);
    assert.equal(f.comment.comments.length, 12);
    assert.equal(f.worklog.total, 7);
    assert.equal(f.attachment[0].content, `${fake.url}/attachment/content/${f.attachment[0].id}`);
    assert.ok('customfield_10000' in f);
    assert.equal(f.subtasks.length, 2);
    const missing = await call('GET', '/issue/NOPE-9');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json, {
      errorMessages: ['Issue does not exist or you do not have permission to see it.'],
      errors: {},
    });
  });

  it('creates, edits, assigns, transitions and deletes an issue; reads see each write', async () => {
    const refused = await call('POST', '/issue', {
      fields: { project: { key: 'ENG' }, issuetype: { name: 'Task' } },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json, {
      errorMessages: [],
      errors: { summary: 'You must specify a summary of the issue.' },
    });
    clock += 60_000;
    const created = await call('POST', '/issue', {
      fields: {
        project: { key: 'OPS' },
        issuetype: { id: '10002' },
        summary: 'Printer on fire',
        description: doc('Smoke.'),
      },
    });
    assert.equal(created.status, 201);
    assert.match(created.json.key, /^OPS-\d+$/);
    const edited = await call('PUT', `/issue/${created.json.key}`, {
      fields: { summary: 'Printer still on fire' },
      update: { labels: [{ add: 'urgent' }] },
    });
    assert.equal(edited.status, 204);
    const someone = fake.data.users[5]?.accountId;
    assert.equal(
      (await call('PUT', `/issue/${created.json.id}/assignee`, { accountId: someone })).status,
      204,
    );
    const transitions = await call('GET', `/issue/${created.json.key}/transitions`);
    const done = transitions.json.transitions.find((t: Json) => t.to.name === 'Done');
    assert.equal(
      (await call('POST', `/issue/${created.json.key}/transitions`, { transition: { id: done.id } })).status,
      204,
    );
    const badTransition = await call('POST', `/issue/${created.json.key}/transitions`, {
      transition: { id: '999' },
    });
    assert.deepEqual(badTransition.json.errorMessages, ["Transition id '999' is not valid for this issue."]);
    const read = await call(
      'GET',
      `/issue/${created.json.key}?fields=summary,labels,assignee,status,resolution,updated`,
    );
    assert.equal(read.json.fields.summary, 'Printer still on fire');
    assert.deepEqual(read.json.fields.labels, ['urgent']);
    assert.equal(read.json.fields.assignee.accountId, someone);
    assert.equal(read.json.fields.status.name, 'Done');
    assert.equal(read.json.fields.resolution.name, 'Done');
    assert.equal(read.json.fields.updated, new Date(clock).toISOString().replace('Z', '+0000'));
    const since = await call('POST', '/search/jql', {
      jql: 'updated >= "2025-01-10 12:00"',
      fields: ['summary'],
    });
    assert.deepEqual(
      since.json.issues.map((i: Json) => i.key),
      [created.json.key],
    );
    assert.equal((await call('DELETE', `/issue/${created.json.key}`)).status, 204);
    assert.equal((await call('GET', `/issue/${created.json.key}`)).status, 404);
  });

  it('pages comments by startAt/maxResults and supports comment CRUD', async () => {
    const first = await call('GET', '/issue/ENG-1/comment?maxResults=5');
    assert.deepEqual(
      [first.json.startAt, first.json.maxResults, first.json.total, first.json.comments.length],
      [0, 5, 12, 5],
    );
    const last = await call('GET', '/issue/ENG-1/comment?startAt=10&maxResults=5');
    assert.equal(last.json.comments.length, 2);
    const added = await call('POST', '/issue/ENG-2/comment', { body: doc('First!') });
    assert.equal(added.status, 201);
    assert.equal(added.json.author.accountId, fake.me.accountId);
    const updated = await call('PUT', `/issue/ENG-2/comment/${added.json.id}`, {
      body: doc('Second thoughts'),
    });
    assert.equal(updated.json.body.content[0].content[0].text, 'Second thoughts');
    const got = await call('GET', `/issue/ENG-2/comment/${added.json.id}`);
    assert.equal(got.json.body.content[0].content[0].text, 'Second thoughts');
    const plain = await call('POST', '/issue/ENG-2/comment', { body: 'not a document' });
    assert.equal(plain.status, 400);
    assert.ok(plain.json.errors.comment);
    assert.equal((await call('DELETE', `/issue/ENG-2/comment/${added.json.id}`)).status, 204);
    const gone = await call('GET', `/issue/ENG-2/comment/${added.json.id}`);
    assert.equal(gone.status, 404);
  });

  it('pages worklogs, adds one and reads it back', async () => {
    const page = await call('GET', '/issue/ENG-1/worklog?maxResults=5');
    assert.deepEqual([page.json.total, page.json.worklogs.length], [7, 5]);
    const rest = await call('GET', '/issue/ENG-1/worklog?startAt=5&maxResults=5');
    assert.equal(rest.json.worklogs.length, 2);
    const added = await call('POST', '/issue/ENG-1/worklog', {
      timeSpent: '3h 20m',
      started: '2025-01-09T10:00:00.000+0000',
      comment: doc('Pairing'),
    });
    assert.equal(added.status, 201);
    assert.equal(added.json.timeSpentSeconds, 12000);
    const got = await call('GET', `/issue/ENG-1/worklog/${added.json.id}`);
    assert.equal(got.json.timeSpent, '3h 20m');
    assert.equal(got.json.started, '2025-01-09T10:00:00.000+0000');
  });

  it('links two issues so both show the link', async () => {
    const res = await call('POST', '/issueLink', {
      type: { name: 'Blocks' },
      inwardIssue: { key: 'ENG-5' },
      outwardIssue: { key: 'OPS-3' },
    });
    assert.equal(res.status, 201);
    const a = await call('GET', '/issue/ENG-5?fields=issuelinks');
    assert.ok(
      a.json.fields.issuelinks.some((l: Json) => l.outwardIssue?.key === 'OPS-3' && l.type.name === 'Blocks'),
    );
    const b = await call('GET', '/issue/OPS-3?fields=issuelinks');
    assert.ok(b.json.fields.issuelinks.some((l: Json) => l.inwardIssue?.key === 'ENG-5'));
    const badType = await call('POST', '/issueLink', {
      type: { name: 'Nope' },
      inwardIssue: { key: 'ENG-5' },
      outwardIssue: { key: 'OPS-3' },
    });
    assert.equal(badType.status, 404);
  });

  it('lists ≥ 120 fields and pages field search with isLast', async () => {
    const all = await call('GET', '/field');
    assert.ok(all.json.length >= 120);
    const values: Json[] = [];
    let startAt = 0;
    for (;;) {
      const page = await call(
        'GET',
        `/field/search?type=custom&startAt=${startAt}&maxResults=50&expand=key,lastUsed`,
      );
      values.push(...page.json.values);
      if (page.json.isLast) break;
      startAt += page.json.maxResults;
    }
    assert.equal(values.length, all.json.filter((f: Json) => f.custom).length);
    assert.ok(values.every((v) => v.id.startsWith('customfield_') && v.key === v.id && v.lastUsed));
  });

  it('pages projects with nextPage, gets one, and answers 404 for an unknown key', async () => {
    const first = await call('GET', '/project/search?maxResults=1');
    assert.deepEqual([first.json.total, first.json.isLast, first.json.values[0].key], [2, false, 'ENG']);
    const nextPath = new URL(first.json.nextPage).pathname + new URL(first.json.nextPage).search;
    const second = await fetch(`${fake.origin}${nextPath}`, { headers: { authorization: BASIC } });
    const body = (await second.json()) as Json;
    assert.deepEqual([body.isLast, body.values[0].key], [true, 'OPS']);
    const project = await call('GET', '/project/OPS');
    assert.equal(project.json.lead.accountId, fake.data.projects[1]?.leadAccountId);
    const missing = await call('GET', '/project/ZZZ');
    assert.deepEqual(missing.json, {
      errorMessages: ["No project could be found with key 'ZZZ'."],
      errors: {},
    });
  });

  it('pages users as bare arrays and finds users by query and accountId', async () => {
    const p1 = await call('GET', '/users/search?startAt=0&maxResults=20');
    const p2 = await call('GET', '/users/search?startAt=20&maxResults=20');
    assert.equal(p1.json.length + p2.json.length, fake.data.users.length);
    const found = await call('GET', '/user/search?query=ada');
    assert.ok(found.json.length > 0 && found.json.every((u: Json) => /ada/i.test(u.displayName) && u.active));
    const one = await call('GET', `/user?accountId=${fake.me.accountId}`);
    assert.equal(one.json.displayName, fake.me.displayName);
    assert.equal((await call('GET', '/user/search')).status, 400);
  });

  it('redirects attachment content (303) to a media origin that serves the bytes without credentials', async () => {
    const a = fake.data.attachments[0];
    assert.ok(a);
    const meta = await call('GET', `/attachment/${a.id}`);
    assert.equal(meta.json.id, Number(a.id));
    assert.equal(meta.json.content, `${fake.url}/attachment/content/${a.id}`);
    const redirect = await call('GET', `/attachment/content/${a.id}`);
    assert.equal(redirect.status, 303);
    const location = redirect.headers.get('location') ?? '';
    assert.ok(location.startsWith(fake.media.origin) && fake.media.origin !== fake.origin);
    const bytes = await fetch(location);
    assert.equal(bytes.status, 200);
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), a.bytes);
    assert.ok(fake.media.requests.every((r) => r.headers.authorization === undefined));
    const ranged = await fetch(`${fake.url}/attachment/content/${a.id}?redirect=false`, {
      headers: { authorization: BASIC, range: 'bytes=0-9' },
    });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get('content-range'), `bytes 0-9/${a.bytes.length}`);
  });

  it('injects faults with Jira bodies, and records unknown paths and methods as unhandled', async () => {
    fake.failNext({ status: 404, match: '/rest/api/3/issue/ENG-2' });
    const faulted = await call('GET', '/issue/ENG-2');
    assert.equal(faulted.status, 404);
    assert.ok(Array.isArray(faulted.json.errorMessages));
    fake.failNext({
      status: 503,
      match: '/rest/api/3/myself',
      headers: { 'Retry-After': '3' },
      body: { errorMessages: ['busy'] },
    });
    const busy = await call('GET', '/myself');
    assert.deepEqual(
      [busy.status, busy.headers.get('retry-after'), busy.json.errorMessages[0]],
      [503, '3', 'busy'],
    );
    const before = fake.unhandled.length;
    const unknown = await call('GET', '/nothing/here');
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.errorMessages[0], /^null for uri: /);
    assert.equal((await call('PATCH', '/issue/ENG-1')).status, 405);
    assert.equal(fake.unhandled.length, before + 2);
  });

  it('answers the burst rate limit with 429, Retry-After and the X-RateLimit headers', async () => {
    const limited = await startJiraFake({ rateLimitPerSecond: 2 });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let n = 0; n < 4; n++) {
        last = await fetch(`${limited.url}/myself`, { headers: { authorization: BASIC } });
        statuses.push(last.status);
        if (last.status !== 429) await last.arrayBuffer();
      }
      assert.equal(statuses.at(-1), 429);
      assert.ok(last);
      assert.match(last.headers.get('retry-after') ?? '', /^\d+$/);
      assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(last.headers.get('ratelimit-reason'), 'jira-burst-based');
      assert.match(last.headers.get('x-ratelimit-reset') ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
      assert.ok(Array.isArray(((await last.json()) as Json).errorMessages));
    } finally {
      await limited.close();
    }
  });
});
