// Google Drive end to end through the HTTP API, against the Drive fake (test/connectors/google-drive/fake): the
// catalog's entity-actions and param names, create with only a refresh token (Google's token endpoint, then
// about?fields=user), lists paged by nextPageToken to the end, a write read back through get, list and the
// change feed, the refresh after a 401, a file over 10 MB streamed byte for byte, exports and Google's export
// cap, per-user quotas as rate limits, and the consent URL's scopes against the discovery document's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  sourceDefinition,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { hostedConnector } from '../../helpers/hosted-catalog.ts';
import { assertError } from '../../http/assertions.ts';
import { loadDefinition } from '../kit/definition.ts';
import type { RecordedRequest } from '../kit/index.ts';
import { FOLDER } from './fake/dataset.ts';
import {
  type DriveFake,
  GOOGLE_FAKE_CLIENT_ID,
  GOOGLE_FAKE_CLIENT_SECRET,
  startDriveFake,
} from './fake/index.ts';

const DRIVE_ID = '9f8dda77-1048-4368-815b-269bf54ee9b8';
// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON records
type Json = Record<string, any>;

const route = (r: RecordedRequest) => `${r.method} ${r.path.split('?')[0]}`;
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const bearer = (r: RecordedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');

/** The catalog's entity-actions the definition does not serve, each with why (none now). */
const NOT_SERVED: Record<string, string> = {};

describe('Google Drive through the HTTP API (OAuth2.0)', () => {
  let fake: DriveFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;
  const oauth = (extra: Json) => ({
    client_id: GOOGLE_FAKE_CLIENT_ID,
    client_secret: GOOGLE_FAKE_CLIENT_SECRET,
    ...extra,
  });

  before(async () => {
    fake = await startDriveFake();
    ({ h, token } = await startWithFake('google-drive', fake.url));
  });
  after(async () => {
    assert.deepEqual(fake?.unhandled, [], 'every request reached a route of the fake');
    await closeAll(h, fake);
  });

  test("every catalog entity-action is declared with the catalog's param names, but the upload", async () => {
    const definition = await sourceDefinition(h, token, DRIVE_ID);
    const ours = new Map<string, string[]>();
    for (const e of definition.entities as Array<{
      name: string;
      actions: Array<{ name: string; params: Array<{ name: string }> }>;
    }>)
      for (const a of e.actions)
        ours.set(
          `${e.name}.${a.name}`,
          a.params.map((p) => p.name),
        );
    const missing: string[] = [];
    for (const [entity, actions] of Object.entries(hostedConnector('google-drive').entities))
      for (const [action, spec] of Object.entries(actions)) {
        const accepted = ours.get(`${entity}.${action}`);
        if (accepted === undefined) {
          missing.push(`${entity}.${action}`);
          continue;
        }
        for (const name of [...spec.params, ...(spec.body ?? [])])
          assert.ok(accepted.includes(name), `${entity}.${action} does not accept '${name}'`);
      }
    assert.deepEqual(missing, Object.keys(NOT_SERVED));
  });

  test('a refresh token Google refuses is INVALID_CREDENTIALS at create', async () => {
    const res = await createConnector(h, token, {
      definition_id: DRIVE_ID,
      credentials: oauth({ refresh_token: '1//0revoked' }),
    });
    assertError(res, 422, 'INVALID_CREDENTIALS');
    assert.doesNotMatch(res.body, /1\/\/0revoked|GOCSPX/);
  });

  test('create with only a refresh token: a form refresh at /token, then GET /about?fields=user with the new token', async () => {
    const grant = fake.oauth.grant();
    const mark = fake.requests.length;
    const res = await createConnector(h, token, {
      definition_id: DRIVE_ID,
      credentials: oauth({ refresh_token: grant.refresh_token }),
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credentials_status, 'valid');
    api = connectorApi(h, token, res.json.id);
    const sent = fake.requests.slice(mark);
    assert.deepEqual(sent.map(route), ['POST /token', 'GET /drive/v3/about']);
    const [refresh, check] = sent as [RecordedRequest, RecordedRequest];
    assert.match(String(refresh.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(refresh.body)), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: GOOGLE_FAKE_CLIENT_ID,
      client_secret: GOOGLE_FAKE_CLIENT_SECRET,
    });
    assert.equal(query(check).get('fields'), 'user');
    assert.equal(bearer(check), fake.oauth.log.at(-1)?.access_token);
  });

  test('files.list follows nextPageToken to the last page: every file once', async () => {
    const mark = fake.requests.length;
    const pages = await api.pages('files', 'list', { pageSize: 10 });
    const ids = pages.flatMap((p) => p.result.map((f: Json) => f.id));
    assert.equal(pages.length, Math.ceil(fake.data.files.size / 10));
    assert.deepEqual(new Set(ids), new Set(fake.data.files.keys()));
    assert.equal(ids.length, fake.data.files.size);
    const sent = fake.requests.slice(mark);
    assert.equal(query(sent[0] as RecordedRequest).get('pageToken'), null);
    for (const r of sent.slice(1)) {
      assert.match(String(query(r).get('pageToken')), /^~!!~/);
      assert.equal(query(r).get('pageSize'), '10');
    }
    // Drive's default members of a listed file.
    assert.deepEqual(Object.keys(pages[0]?.result[0]).sort(), ['id', 'kind', 'mimeType', 'name']);
  });

  test('a folder created is read back by get, found by a files query, and shows in the change feed', async () => {
    const start = await api.exec('changes_start_page_token', 'get', {});
    assert.equal(start.status, 200, start.body);
    const created = await api.exec('files', 'create', { name: 'Quarterly review', mimeType: FOLDER });
    assert.equal(created.status, 200, created.body);
    const id = created.json.result.id as string;
    assert.equal(JSON.parse((fake.requests.at(-1) as RecordedRequest).body).name, 'Quarterly review');
    const moved = await api.exec('files', 'update', {
      fileId: id,
      name: 'Quarterly review (final)',
      starred: true,
    });
    assert.equal(moved.status, 200, moved.body);
    const got = await api.exec('files', 'get', { fileId: id, fields: 'id,name,starred,mimeType,parents' });
    assert.equal(got.status, 200, got.body);
    assert.deepEqual(got.json.result, {
      id,
      name: 'Quarterly review (final)',
      starred: true,
      mimeType: FOLDER,
      parents: [fake.data.rootId],
    });
    const found = await api.exec('files', 'list', { q: "name contains 'quarterly' and trashed = false" });
    assert.deepEqual(
      found.json.result.map((f: Json) => f.id),
      [id],
    );
    const changes = await api.pages('changes', 'list', { pageToken: start.json.result.startPageToken });
    const feed = changes.flatMap((p) => p.result);
    assert.deepEqual(
      feed.map((c: Json) => c.fileId),
      [id, id],
    );
    assert.equal(feed.at(-1).file.name, 'Quarterly review (final)');
    const last = changes.at(-1)?.connector_metadata;
    assert.equal(last.new_start_page_token, fake.data.startPageToken());
  });

  test('an access token Google expired (401) is renewed once, and the call retried', async () => {
    fake.oauth.expireAccessTokens();
    const mark = fake.requests.length;
    const res = await api.exec('drives', 'list', { pageSize: 3 });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.length, 3);
    assert.deepEqual(fake.requests.slice(mark).map(route), [
      'GET /drive/v3/drives',
      'POST /token',
      'GET /drive/v3/drives',
    ]);
  });

  test('an upload sends its metadata and content as multipart/related; the file reads back byte for byte', async () => {
    const text = 'Minutes of the planning meeting.\nÜbersicht: ✓ three items.\n';
    const res = await api.exec('files_upload', 'create', {
      name: 'minutes.txt',
      content: Buffer.from(text).toString('base64'),
      content_type: 'text/plain',
      uploadType: 'multipart',
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.name, 'minutes.txt');
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(sent), 'POST /upload/drive/v3/files');
    assert.equal(query(sent).get('uploadType'), 'multipart');
    assert.match(String(sent.headers['content-type']), /^multipart\/related; boundary=ces-[0-9a-f]{24}$/);
    const back = await api.exec('files', 'download', { fileId: res.json.result.id });
    assert.equal(back.status, 200);
    assert.equal(back.raw.toString('utf8'), text);
    const bad = await api.exec('files_upload', 'create', {
      name: 'x',
      content: 'eA==',
      content_type: 'text/plain\r\nX: y',
    });
    assertError(bad, 422, 'INVALID_PARAMS');
  });

  test('a file over 10 MB streams with alt=media, byte for byte; a range gives its part', async () => {
    const large = fake.data.files.get(fake.data.largeFileId);
    assert.ok(large?.content && large.content.length > 10 * 1024 * 1024);
    const res = await api.exec('files', 'download', { fileId: large.id });
    assert.equal(res.status, 200);
    assert.equal(res.raw.length, large.content.length);
    assert.ok(res.raw.equals(large.content), 'the exact bytes');
    assert.equal(String(res.headers['content-type']), 'application/x-tar');
    assert.equal(query(fake.requests.at(-1) as RecordedRequest).get('alt'), 'media');
    const part = await api.exec('files', 'download', { fileId: large.id }, { range: 'bytes=100-199' });
    assert.equal(part.status, 206);
    assert.ok(part.raw.equals(large.content.subarray(100, 200)));
  });

  test("a Google Doc exports to the format asked; over Google's 10 MB cap it is a clear INVALID_PARAMS", async () => {
    const doc = fake.data.files.get(fake.data.docId);
    const text = await api.exec('files_export', 'download', {
      fileId: fake.data.docId,
      mimeType: 'text/plain',
    });
    assert.equal(text.status, 200);
    assert.equal(text.raw.toString('utf8'), doc?.text);
    const capped = await api.exec('files_export', 'download', {
      fileId: fake.data.hugeDocId,
      mimeType: 'application/pdf',
    });
    assertError(capped, 422, 'INVALID_PARAMS');
    assert.match(capped.json.message, /too large to be exported/);
    assert.equal(capped.json.upstream.body.error.errors[0].reason, 'exportSizeLimitExceeded');
    // alt=media on a Doc is Google's 403 fileNotDownloadable: a refusal, not a rate limit.
    assertError(await api.exec('files', 'download', { fileId: fake.data.docId }), 424, 'UPSTREAM_FORBIDDEN');
  });

  test("Google's per-user quota (403 userRateLimitExceeded) is a rate limit: retried, and passed on as one", async () => {
    const photo = [...fake.data.files.values()].find((f) => f.mimeType === 'image/png');
    fake.failNext({
      status: 403,
      match: `/drive/v3/files/${photo?.id}/revisions`,
      body: {
        error: {
          code: 403,
          message: 'User Rate Limit Exceeded',
          errors: [
            { domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' },
          ],
        },
      },
    });
    const mark = fake.requests.length;
    const ok = await api.exec('revisions', 'list', { fileId: photo?.id });
    assert.equal(ok.status, 200, ok.body);
    assert.equal(fake.requests.length - mark, 2, 'one refusal, one retry');
    fake.failNext({
      status: 429,
      match: `/drive/v3/files/${photo?.id}/revisions`,
      headers: { 'Retry-After': '120' },
    });
    const limited = await api.exec('revisions', 'list', { fileId: photo?.id });
    assertError(limited, 429, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '120');
  });
});

describe('Google Drive consent', () => {
  test('asks offline access for the one scope that authorizes every method the definition calls', () => {
    const def = loadDefinition('google-drive');
    const option = def.credential_options[0];
    assert.equal(option?.authorization?.url, 'https://accounts.google.com/o/oauth2/v2/auth');
    assert.equal(option?.authorization?.params?.access_type, 'offline');
    const scopes = option?.authorization?.scopes ?? [];
    const facts = JSON.parse(
      readFileSync(new URL('../../reference/providers/google-drive.json', import.meta.url), 'utf8'),
    ) as { operations: Record<string, { scopes?: string[] }> };
    const called = def.entities.flatMap((e) =>
      // As the base URL resolves the path (the upload URI climbs out of /drive/v3).
      Object.values(e.actions).map(
        (a) =>
          `${a?.request.method} ${decodeURI(new URL(`.${a?.request.path}`, 'https://x/drive/v3/').pathname)}`,
      ),
    );
    called.push(`GET /drive/v3${def.check.path}`);
    for (const key of called) {
      const allowed = facts.operations[key]?.scopes;
      assert.ok(allowed, `${key} is an operation of the discovery document`);
      assert.ok(
        scopes.some((s) => allowed.includes(s)),
        `${key} is authorized by ${scopes.join(' ')}`,
      );
    }
    // No narrower scope would do: updating and deleting any file takes the full drive scope.
    const narrower = ['drive.readonly', 'drive.file', 'drive.metadata'].map(
      (s) => `https://www.googleapis.com/auth/${s}`,
    );
    for (const s of narrower)
      assert.ok(
        called.some((key) => !facts.operations[key]?.scopes?.includes(s)),
        `${s} alone would not serve every action`,
      );
    assert.deepEqual(scopes, ['https://www.googleapis.com/auth/drive']);
  });
});
