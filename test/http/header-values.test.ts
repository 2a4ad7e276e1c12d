// A credential or a param that ces would send in an HTTP header but that a header can't carry (CR/LF, control
// characters, text beyond Latin-1) is the caller's mistake: 422 naming the field, in the one error body, and the
// provider is never asked. It used to reach undici and come back as 502 "Could not reach …".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createGithubConnector,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';
import { assertError, errorFields } from './assertions.ts';

describe('values sent in HTTP headers', () => {
  let fake: GithubFake;
  let h: Harness;
  let close: () => Promise<unknown>;
  let token: string;
  before(async () => {
    ({ fake, h, close } = await startWithGithub());
    token = await h.token();
  });
  after(async () => {
    await close();
    assert.deepEqual(fake.unhandled, []);
  });

  it('a credential a header cannot carry is refused at create, before the live check', async () => {
    for (const pat of ['ghp_test_token_0001ą', 'ghp_test_token_0001\r\nX-Injected: 1', 'ghp_\u0000x']) {
      const res = await createGithubConnector(h, token, {}, pat);
      assertError(res, 422, 'INVALID_CREDENTIALS');
      assert.deepEqual(errorFields(res), ['credentials.personal_access_token']);
      assert.ok(!res.body.includes(pat) && !res.body.includes(JSON.stringify(pat)), 'the value was echoed');
    }
    assert.equal(fake.requests.length, 0, 'the provider was asked');
  });

  it('a range_header with CR/LF or non-Latin-1 text is INVALID_PARAMS naming it', async () => {
    const made = await createGithubConnector(h, token);
    assert.equal(made.status, 200, made.body);
    const asked = fake.requests.length;
    for (const range of ['bytes=0-9\r\nX-Injected: 1', 'bytes=0-9\n', 'bytes=0-９']) {
      const res = await h.inject({
        method: 'POST',
        url: `/api/v1/integrations/connectors/${made.json.id}/execute`,
        token,
        body: {
          entity: 'repositories',
          action: 'download',
          params: { owner: 'ces-demo', repo: 'widgets', range_header: range },
        },
      });
      assertError(res, 422, 'INVALID_PARAMS');
      assert.deepEqual(errorFields(res), ['params.range_header']);
    }
    assert.equal(fake.requests.length, asked, 'the provider was asked');
  });
});
