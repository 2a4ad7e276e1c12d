// A provider's error body passes to the caller only as an allowlisted subset with the credential scrubbed. An
// upstream that echoes the token as a JSON key (or inside a longer key or text) must not get it through either.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import type { ConnectorRuntime } from '../../src/connectors/runtime/executor.ts';
import { DomainError } from '../../src/errors.ts';
import { closeChecked, runtimeFor } from '../helpers/fake-runtime.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './github/fake/index.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const TOKEN = GITHUB_FAKE_DEFAULT_TOKEN;

describe('upstream error bodies', () => {
  let fake: GithubFake;
  let rt: ConnectorRuntime;
  before(async () => {
    fake = await startGithubFake();
    rt = runtimeFor('github', fake.url);
  });
  after(() => closeChecked(rt, fake));

  const failure = async (body: unknown): Promise<DomainError> => {
    fake.failNext({ status: 422, body, match: '/users/' });
    try {
      await rt.execute({
        connectorId: 'c1',
        definition: github,
        credentials: { option: 'PAT Credentials', values: { personal_access_token: TOKEN } },
        config: { repositories: ['ces-demo/widgets'] },
        entity: 'users',
        action: 'get',
        params: { username: 'octocat' },
      });
    } catch (err) {
      assert.ok(err instanceof DomainError, String(err));
      return err;
    }
    assert.fail('expected the upstream error');
  };

  it('scrubs the credential from keys and values at any exposed depth', async () => {
    const err = await failure({
      message: `Validation Failed for ${TOKEN}`,
      errors: [
        { [TOKEN]: 'is not a valid field', [`x-${TOKEN}-y`]: { nested: { [TOKEN]: `${TOKEN}${TOKEN}` } } },
        { resource: 'User', code: 'invalid', field: `token:${encodeURIComponent(`${TOKEN}/`)}` },
      ],
      // Not allowlisted: dropped whatever it holds.
      [TOKEN]: TOKEN,
    });
    assert.equal(err.code, 'INVALID_PARAMS');
    const shown = JSON.stringify({ message: err.message, errors: err.errors, extra: err.extra });
    // The body did reach the caller (so the check below is not vacuous), minus the token.
    assert.match(shown, /Validation Failed for \[redacted\]/);
    assert.match(shown, /is not a valid field/);
    assert.match(shown, /x-\[redacted\]-y/);
    assert.ok(!shown.includes(TOKEN), `the credential leaked: ${shown}`);
    const upstream = err.extra?.upstream as { body: { errors: Array<Record<string, unknown>> } };
    assert.deepEqual(upstream.body.errors[0], {
      '[redacted]': 'is not a valid field',
      'x-[redacted]-y': { nested: { '[redacted]': '[redacted][redacted]' } },
    });
  });

  it('keeps a key such as __proto__ as a plain member of the copy', async () => {
    const err = await failure(JSON.parse('{"message":"bad","errors":[{"__proto__":{"polluted":true}}]}'));
    const upstream = err.extra?.upstream as { body: { errors: Array<Record<string, unknown>> } };
    const first = upstream.body.errors[0] as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(first), Object.prototype);
    assert.deepEqual(Object.keys(first), ['__proto__']);
    assert.equal((first as { polluted?: unknown }).polluted, undefined);
  });
});
