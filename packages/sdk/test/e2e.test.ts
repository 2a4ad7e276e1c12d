// The SDK against the real server process (bin/ces.js serve, as the README starts it) and the GitHub fake:
// one server for both suites, the API methods (e2e/api.ts) and the README's examples (e2e/readme.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN, startGithubFake } from '../../../test/connectors/github/fake/index.ts';
import { startServer, stop } from '../../../test/helpers/server-process.ts';
import { Ces } from '../src/index.ts';
import { apiSuite } from './e2e/api.ts';
import type { E2e } from './e2e/context.ts';
import { readmeSuite } from './e2e/readme.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-sdk-'));
const e2e = {} as E2e;

before(async () => {
  e2e.fake = await startGithubFake({ tokens: [GITHUB_FAKE_DEFAULT_TOKEN] });
  e2e.server = await startServer({
    CES_DATA_DIR: dataDir,
    CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: e2e.fake.url }),
  });
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap-credentials.json'), 'utf8'));
  e2e.credentials = { clientId: boot.client_id, clientSecret: boot.client_secret };
  e2e.ces = new Ces({ baseUrl: e2e.server.url, ...e2e.credentials });
});

after(async () => {
  // Whatever before() got to start: a server that did not start must not keep the fake (and the file) alive.
  if (e2e.server) await stop(e2e.server);
  await e2e.fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

apiSuite(e2e);
readmeSuite(e2e);
