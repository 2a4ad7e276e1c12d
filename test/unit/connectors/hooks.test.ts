// The runtime's hook points, on a fictional provider that borrows the one registered module (Gong's, whose own
// tests run it against Gong's fake): `empty_answer` (a list whose provider answers "nothing matched" with 404)
// and `download_body` (the body of a download's metadata request, whose answer names a file on another origin
// that must not see the credentials). Plus the load checks of hooks, and hyphenated param names.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDefinition } from '../../../src/connectors/load.ts';
import { checkHooks } from '../../../src/connectors/load-hooks.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { DomainError } from '../../../src/errors.ts';
import { json, runtime, startServer } from './helpers.ts';

const yaml = (entities: string) => `
id: 0b6d7f7e-2222-4c1a-9d8e-2f0c5a1b2c3d
slug: media-co
name: MediaCo
icon_url: https://media.example/icon.svg
support_level: community
documentation_url: https://media.example/docs
base_url: https://api.media.example/v1
credential_options:
  - title: Token
    description: A token.
    fields: { token: { type: string, title: Token, description: The token., secret: true } }
    required: [token]
    auth: { type: bearer, token: "{token}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
hooks: gong
entities:
${entities}`;

const ENTITIES = `
  - name: clips
    description: Clips.
    primary_key: [id]
    actions:
      list:
        description: Clips in a window; none is a 404.
        params:
          since: { type: string, required: true, description: From. }
          owner-id: { type: string, description: A hyphenated provider name. }
        request: { method: GET, path: /clips }
        record_selector: [clips]
        pagination: { type: body_cursor, cursor_path: [next], param: cursor }
        page_size_param: false
        meta: { total: [total] }
        uses_hooks: [empty_answer]
      download:
        description: A clip's file.
        params:
          query: { type: object, required: true, description: Which clip. }
          contentSelector: { type: object, description: Client options. }
        request: { method: POST, path: /clips/search, idempotent: true }
        uses_hooks: [download_body]
        download:
          file_url: [clips, "0", files, original]
  - name: albums
    description: Albums.
    primary_key: [id]
    actions:
      list:
        description: Albums; a 404 is an error here.
        request: { method: GET, path: /albums }
        record_selector: [albums]
`;

const CREDS = { option: 'Token', values: { token: 'tok-secret-9f2c1a' } };

describe('hook points: empty_answer and download_body', () => {
  const def = parseDefinition(yaml(ENTITIES), 'media-co.yaml');
  let api: Awaited<ReturnType<typeof startServer>>;
  let files: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;
  const run = (entity: string, action: string, params: Record<string, unknown>) =>
    rt.execute({
      connectorId: 'c1',
      definition: def,
      credentials: CREDS,
      config: {},
      entity,
      action,
      params,
    });
  const download = (params: Record<string, unknown>) =>
    rt.download({
      connectorId: 'c1',
      definition: def,
      credentials: CREDS,
      config: {},
      entity: 'clips',
      action: 'download',
      params,
    });

  before(async () => {
    files = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '5' });
      res.end('movie');
    });
    api = await startServer((req, res) => {
      if (req.url.startsWith('/v1/clips?')) {
        return new URL(req.url, 'http://x').searchParams.get('since') === 'never'
          ? json(res, 404, { message: 'nothing in this window' })
          : json(res, 200, { clips: [{ id: 1 }], total: 1 });
      }
      if (req.url === '/v1/albums') return json(res, 404, { message: 'no albums' });
      if (req.url === '/v1/clips/search') {
        const body = JSON.parse(req.body);
        const wanted = body.query.id;
        if (wanted === 'none') return json(res, 200, { clips: [{ id: 'none', files: { original: null } }] });
        const withFiles = body.contentSelector?.exposedFields?.media === true;
        return json(res, 200, {
          clips: [
            {
              id: wanted,
              ...(withFiles ? { files: { original: `${files.url}/f/${wanted}.mp4?sig=abc` } } : {}),
            },
          ],
        });
      }
      json(res, 500, { message: 'unexpected' });
    });
    // Only the API's origin is an override; the file host is allowed as an operator would (CES_EGRESS_ALLOW).
    rt = runtime(
      { 'media-co': `${api.url}/v1` },
      { egressAllow: [{ kind: 'host', host: '127.0.0.1', port: files.port }] },
    );
  });
  after(async () => {
    await rt.close();
    await api.close();
    await files.close();
  });

  it('a 404 on a list using empty_answer is an empty last page; elsewhere it stays UPSTREAM_NOT_FOUND', async () => {
    const empty = await run('clips', 'list', { since: 'never', 'owner-id': 'u-1' });
    assert.deepEqual(parseRecords(empty.payload), []);
    assert.deepEqual(empty.connector_metadata, { total: null, has_next_page: false, end_cursor: null });
    assert.equal(api.seen.at(-1)?.url, '/v1/clips?since=never&owner-id=u-1');
    const full = await run('clips', 'list', { since: 'today' });
    assert.deepEqual(parseRecords(full.payload), [{ id: 1 }]);
    await assert.rejects(run('albums', 'list', {}), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, 'UPSTREAM_NOT_FOUND');
      return true;
    });
  });

  it("download_body shapes the metadata body over the client's, and the file host never sees the credential", async () => {
    const apiMark = api.seen.length;
    const got = await download({
      query: { id: 'c7' },
      contentSelector: { context: 'x', exposedFields: { media: false, thumbs: true } },
    });
    const chunks: Buffer[] = [];
    for await (const c of got.body) chunks.push(c as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'movie');
    assert.deepEqual(JSON.parse(api.seen[apiMark]!.body), {
      query: { id: 'c7' },
      contentSelector: { context: 'x', exposedFields: { media: true, thumbs: true } },
    });
    assert.equal(api.seen[apiMark]!.headers.authorization, 'Bearer tok-secret-9f2c1a');
    const hit = files.seen.at(-1)!;
    assert.equal(hit.url, '/f/c7.mp4?sig=abc');
    assert.equal(hit.headers.authorization, undefined);
    assert.ok(!JSON.stringify(hit.headers).includes('tok-secret-9f2c1a'));
  });

  it('a metadata answer with no file URL is UPSTREAM_NOT_FOUND', async () => {
    await assert.rejects(download({ query: { id: 'none' } }), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, 'UPSTREAM_NOT_FOUND');
      return true;
    });
  });

  it('load checks name file and pointer', () => {
    const bad = (entities: string, head = yaml) => {
      try {
        parseDefinition(head(entities), 'bad.yaml');
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    const getEmpty = bad(`
  - name: x
    description: X.
    primary_key: [id]
    actions:
      get: { description: One., request: { method: GET, path: /x }, uses_hooks: [empty_answer] }
`);
    assert.match(
      getEmpty,
      /^bad\.yaml: \/entities\/0\/actions\/get\/uses_hooks\/0: empty_answer: only list and api_search/m,
    );
    const bodyWithoutUrl = bad(`
  - name: x
    description: X.
    primary_key: [id]
    actions:
      download: { description: File., request: { method: GET, path: /x }, uses_hooks: [download_body] }
`);
    assert.match(
      bodyWithoutUrl,
      /bad\.yaml: \/entities\/0\/actions\/download\/uses_hooks\/0: download_body: only a download with file_url/,
    );
    const bodyOnGet = bad(`
  - name: x
    description: X.
    primary_key: [id]
    actions:
      download: { description: File., request: { method: GET, path: /x }, uses_hooks: [download_body], download: { file_url: [u] } }
`);
    assert.match(
      bodyOnGet,
      /\/entities\/0\/actions\/download\/uses_hooks\/0: download_body: a GET request has no body/,
    );
    const unknownPoint = bad(`
  - name: x
    description: X.
    primary_key: [id]
    actions:
      list: { description: L., request: { method: GET, path: /x }, uses_hooks: [next_page] }
`);
    assert.match(unknownPoint, /bad\.yaml: \/entities\/0\/actions\/list\/uses_hooks\/0: must be one of/);
    const unknownModule = bad(ENTITIES, (e) => yaml(e).replace('hooks: gong', 'hooks: media-co'));
    // Every registered module is listed, in order (gong among them).
    assert.match(
      unknownModule,
      /^bad\.yaml: \/hooks: no hook module 'media-co' \(registered: ([a-z-]+, )*gong(, [a-z-]+)*\)$/m,
    );
    const noModule = bad(ENTITIES, (e) => yaml(e).replace('hooks: gong\n', ''));
    assert.match(
      noModule,
      /^bad\.yaml: \/entities\/0\/actions\/list\/uses_hooks\/0: empty_answer needs a hook module \(top-level hooks\)$/m,
    );
    const badName = bad(`
  - name: x
    description: X.
    primary_key: [id]
    actions:
      list: { description: L., params: { "-id": { type: string, description: D. } }, request: { method: GET, path: /x } }
`);
    assert.match(badName, /\/entities\/0\/actions\/list\/params\/-id: invalid param name/);
  });

  it('the options that became hook points say so when a definition still uses them', () => {
    const old = (entities: string) => {
      try {
        parseDefinition(yaml(entities), 'old.yaml');
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    assert.match(
      old(ENTITIES.replace('uses_hooks: [empty_answer]', 'not_found_is_empty: true')),
      /^old\.yaml: \/entities\/0\/actions\/list\/not_found_is_empty: unknown property: one provider's quirk is now a hook point of its hook module, uses_hooks: \[empty_answer\]/m,
    );
    assert.match(
      old(
        ENTITIES.replace('        uses_hooks: [download_body]\n', '').replace(
          'file_url: [clips, "0", files, original]',
          'file_url: [clips, "0", files, original]\n          body: { a: 1 }',
        ),
      ),
      /^old\.yaml: \/entities\/0\/actions\/download\/download\/body: unknown property: .*uses_hooks: \[download_body\]/m,
    );
  });

  it('a module lacking a point an action uses is refused, naming the pointer and the member', () => {
    const out: string[] = [];
    const partial = { emptyAnswer: () => true };
    checkHooks(def, out, { names: ['gong'], module: (name) => (name === 'gong' ? partial : undefined) });
    assert.deepEqual(out, [
      "/entities/0/actions/download/uses_hooks/0: hook module 'gong' does not implement download_body (downloadBody)",
    ]);
    const none: string[] = [];
    checkHooks(def, none);
    assert.deepEqual(none, [], 'the registered module implements both');
  });
});
