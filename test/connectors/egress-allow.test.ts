// CES_EGRESS_ALLOW against real servers on 127.0.0.1. Loopback is refused by default, which is what makes it a
// stand-in for a private network: GitHub's `replication_config.api_url` (a user-controlled base URL) pointed
// at the GitHub fake is refused until the operator names it, by host:port, by name or by range.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import { ConnectorRuntime } from '../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../src/connectors/runtime/payload.ts';
import { DomainError } from '../../src/errors.ts';
import { startHarness } from '../helpers/harness.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './github/fake/index.ts';
import { GITHUB_DEFINITION_ID } from './github/harness.ts';
import { type RecordingServer, startRecordingServer } from './kit/server.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const TOKEN = GITHUB_FAKE_DEFAULT_TOKEN;
const PAT = { option: 'PAT Credentials', values: { personal_access_token: TOKEN } };
const ARCHIVE = Buffer.from('not really a tarball, but bytes all the same');

function runtime(allow: string): ConnectorRuntime {
  return new ConnectorRuntime({
    cursorKey: new Uint8Array(32).fill(3),
    upstreamOverrides: {},
    egressAllow: loadConfig({ CES_EGRESS_ALLOW: allow }).egressAllow,
    timeoutMs: 5000,
  });
}

function denied(check?: (err: DomainError) => void) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, 'EGRESS_DENIED', err.message);
    assert.ok(!JSON.stringify({ m: err.message, x: err.extra }).includes(TOKEN), 'credential leaked');
    check?.(err);
    return true;
  };
}

describe('CES_EGRESS_ALLOW', () => {
  let fake: GithubFake;
  let storage: RecordingServer;
  let other: RecordingServer;
  let port: string;
  const runtimes: ConnectorRuntime[] = [];
  const rt = (allow: string) => {
    const made = runtime(allow);
    runtimes.push(made);
    return made;
  };
  const getUser = (r: ConnectorRuntime, apiUrl: string) =>
    r.execute({
      connectorId: 'c1',
      definition: github,
      credentials: PAT,
      config: { repositories: ['ces-demo/widgets'], api_url: apiUrl },
      entity: 'users',
      action: 'get',
      params: { username: 'octocat' },
    });

  before(async () => {
    fake = await startGithubFake();
    port = new URL(fake.url).port;
    storage = await startRecordingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': String(ARCHIVE.length) });
      res.end(ARCHIVE);
    });
    other = await startRecordingServer((_req, res) => res.writeHead(200).end('should never be asked'));
  });
  after(async () => {
    await Promise.all(runtimes.map((r) => r.close()));
    await Promise.all([fake.close(), storage.close(), other.close()]);
    assert.deepEqual(fake.unhandled, []);
    assert.deepEqual(other.requests, [], 'a destination nobody allowed was contacted');
  });

  it('without it, a base URL on 127.0.0.1 or a name resolving to it is refused before any request', async () => {
    const before = fake.requests.length;
    const strict = rt('');
    await assert.rejects(getUser(strict, `http://127.0.0.1:${port}`), denied());
    // For a name, the answer must not say what it resolved to (nor whether it resolved at all).
    await assert.rejects(
      getUser(strict, `http://localhost:${port}`),
      denied((e) => {
        assert.doesNotMatch(e.message, /loopback|127\.0\.0\.1/);
        assert.deepEqual(e.extra, { host: 'localhost' });
      }),
    );
    assert.equal(fake.requests.length, before);
  });

  it('a host:port entry allows exactly that destination', async () => {
    const before = fake.requests.length;
    const allowed = rt(`127.0.0.1:${port}`);
    const out = await getUser(allowed, `http://127.0.0.1:${port}`);
    assert.equal((parseRecords(out.payload) as { login: string }).login, 'octocat');
    assert.equal(fake.requests.at(-1)?.headers.authorization, `Bearer ${TOKEN}`);
    // Same host, another port; and the name of the same address: neither is what the operator named.
    await assert.rejects(getUser(rt(`127.0.0.1:${Number(port) + 1}`), `http://127.0.0.1:${port}`), denied());
    await assert.rejects(getUser(allowed, `http://localhost:${port}`), denied());
    assert.equal(fake.requests.length, before + 1);
  });

  it('a name entry allows that name whatever it resolves to, but not its address', async () => {
    const allowed = rt(`localhost:${port}`);
    const out = await getUser(allowed, `http://LOCALHOST:${port}`);
    assert.equal((parseRecords(out.payload) as { login: string }).login, 'octocat');
    await assert.rejects(getUser(allowed, `http://127.0.0.1:${port}`), denied());
    await assert.rejects(getUser(rt('localhost:1'), `http://localhost:${port}`), denied());
  });

  it('a CIDR entry allows the addresses inside it, literal or resolved; others stay refused', async () => {
    const ranges = rt('127.0.0.0/8,::1/128');
    assert.equal(
      (parseRecords((await getUser(ranges, `http://127.0.0.1:${port}`)).payload) as { login: string }).login,
      'octocat',
    );
    assert.equal(
      (parseRecords((await getUser(ranges, `http://localhost:${port}`)).payload) as { login: string }).login,
      'octocat',
    );
    const elsewhere = rt('10.0.0.0/8,fd00::/8');
    await assert.rejects(getUser(elsewhere, `http://127.0.0.1:${port}`), denied());
    await assert.rejects(getUser(elsewhere, `http://localhost:${port}`), denied());
  });

  it('an allowed private storage host gets the download redirect without the credentials; another host is refused', async () => {
    const storagePort = new URL(storage.origin).port;
    const allowed = rt(`127.0.0.1:${port},127.0.0.1:${storagePort}`);
    const download = () =>
      allowed.download({
        connectorId: 'c1',
        definition: github,
        credentials: PAT,
        config: { repositories: ['ces-demo/widgets'], api_url: `http://127.0.0.1:${port}` },
        entity: 'repositories',
        action: 'download',
        params: { owner: 'ces-demo', repo: 'widgets' },
      });
    const tarball = '/repos/ces-demo/widgets/tarball';
    fake.failNext({
      match: tarball,
      status: 302,
      headers: { location: `${storage.origin}/files/widgets.tar.gz` },
    });
    const file = await download();
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(chunk as Buffer);
    assert.deepEqual(Buffer.concat(chunks), ARCHIVE);
    assert.equal(fake.requests.at(-1)?.headers.authorization, `Bearer ${TOKEN}`, 'the API got the token');
    assert.equal(storage.requests.length, 1);
    assert.equal(storage.requests[0]?.path, '/files/widgets.tar.gz');
    assert.equal(storage.requests[0]?.headers.authorization, undefined, 'the storage host got the token');
    assert.ok(!JSON.stringify(storage.requests[0]?.headers).includes(TOKEN));

    fake.failNext({
      match: tarball,
      status: 302,
      headers: { location: `${other.origin}/files/widgets.tar.gz` },
    });
    await assert.rejects(download(), denied());
  });
});

describe('CES_EGRESS_ALLOW through the service', () => {
  it('lets a connector use a private GitHub Enterprise address the operator named, and no other', async () => {
    const fake = await startGithubFake();
    const port = new URL(fake.url).port;
    const open = await startHarness({ CES_EGRESS_ALLOW: `127.0.0.1:${port}` });
    const closed = await startHarness();
    try {
      const create = async (h: typeof open) =>
        h.inject({
          method: 'POST',
          url: '/api/v1/integrations/connectors',
          token: await h.token(),
          body: {
            workspace_name: 'default',
            definition_id: GITHUB_DEFINITION_ID,
            name: 'ghe',
            credentials: { personal_access_token: TOKEN },
            replication_config: { repositories: ['ces-demo/widgets'], api_url: `http://127.0.0.1:${port}` },
          },
        });
      const refused = await create(closed);
      assert.equal(refused.status, 422, refused.body);
      assert.equal(refused.json.code, 'EGRESS_DENIED');
      assert.match(refused.json.message, /CES_EGRESS_ALLOW/);
      assert.equal(fake.requests.length, 0);

      const made = await create(open);
      assert.equal(made.status, 200, made.body);
      const run = await open.inject({
        method: 'POST',
        url: `/api/v1/integrations/connectors/${made.json.id}/execute`,
        token: await open.token(),
        body: { entity: 'users', action: 'get', params: { username: 'octocat' } },
      });
      assert.equal(run.status, 200, run.body);
      assert.equal(run.json.result.login, 'octocat');
      assert.deepEqual(fake.unhandled, []);
    } finally {
      await Promise.all([open.close(), closed.close(), fake.close()]);
    }
  });
});
