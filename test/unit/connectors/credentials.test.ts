import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveCredentials } from '../../../src/connectors/credentials.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { DomainError } from '../../../src/errors.ts';
import { acme } from './helpers.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const SECRET = 'ghp_supersecretvalue';

function failure(input: unknown, def = github): DomainError {
  try {
    resolveCredentials(def, input);
  } catch (err) {
    assert.ok(err instanceof DomainError);
    assert.equal(err.code, 'INVALID_CREDENTIALS');
    assert.ok(!err.message.includes(SECRET), 'a credential value leaked into the message');
    assert.ok(!JSON.stringify(err.errors).includes(SECRET), 'a credential value leaked into the details');
    return err;
  }
  assert.fail('expected INVALID_CREDENTIALS');
}

describe('resolveCredentials', () => {
  it('selects the option named by option_title (case-insensitively)', () => {
    assert.deepEqual(
      resolveCredentials(github, { option_title: 'OAuth Credentials', access_token: SECRET }),
      {
        option: 'OAuth Credentials',
        values: { access_token: SECRET },
      },
    );
    assert.equal(
      resolveCredentials(github, { option_title: 'pat credentials', personal_access_token: SECRET }).option,
      'PAT Credentials',
    );
  });

  it('selects the option from the keys alone, accepting declared aliases', () => {
    assert.deepEqual(resolveCredentials(github, { personal_access_token: SECRET }), {
      option: 'PAT Credentials',
      values: { personal_access_token: SECRET },
    });
    assert.deepEqual(resolveCredentials(github, { token: SECRET }).values, { personal_access_token: SECRET });
    assert.equal(resolveCredentials(github, { access_token: SECRET }).option, 'OAuth Credentials');
  });

  it('keeps values exactly as given (no trimming)', () => {
    assert.equal(
      resolveCredentials(github, { access_token: ` ${SECRET} ` }).values.access_token,
      ` ${SECRET} `,
    );
  });

  it('names a missing field and lists the options with their fields', () => {
    const err = failure({ option_title: 'PAT Credentials' });
    assert.match(err.message, /missing required field 'personal_access_token'/);
    assert.match(
      err.message,
      /'PAT Credentials' \(personal_access_token\), 'OAuth Credentials' \(access_token\)/,
    );
    assert.deepEqual(
      err.errors.map((e) => e.field),
      ['credentials.personal_access_token'],
    );
  });

  it('names an unknown key against the closest option', () => {
    const err = failure({ personal_access_token: SECRET, password: SECRET });
    assert.match(err.message, /provided keys: 'personal_access_token', 'password'/);
    assert.match(err.message, /unknown field 'password' for option 'PAT Credentials'/);
    assert.deepEqual(
      err.errors.map((e) => e.field),
      ['credentials.password'],
    );
  });

  it('rejects keys that match no option at all, listing the options', () => {
    const err = failure({ api_key: SECRET });
    assert.match(err.message, /do not match any credential option/);
    assert.match(err.message, /Available options for GitHub: 'PAT Credentials' \(personal_access_token\)/);
  });

  it('rejects an unknown option_title, non-strings, empty strings and non-objects', () => {
    assert.match(
      failure({ option_title: 'SSH Key', access_token: SECRET }).message,
      /option_title must name one of/,
    );
    const typed = failure({ access_token: 12345 });
    assert.match(typed.message, /'access_token' must be a string/);
    assert.match(failure({ access_token: '' }).message, /'access_token' must not be empty/);
    for (const bad of [null, 'ghp_x', [SECRET], 42])
      assert.match(failure(bad).message, /credentials must be an object/);
  });

  it('asks for option_title when the keys fit several options', () => {
    const def = acme();
    const header = def.credential_options.find((o) => o.title === 'Header')!;
    const twin = {
      ...def,
      credential_options: [...def.credential_options, { ...header, title: 'Header v2' }],
    };
    const err = failure({ token: SECRET }, twin);
    assert.match(err.message, /match several credential options; add option_title/);
    assert.equal(resolveCredentials(twin, { option_title: 'Header v2', token: SECRET }).option, 'Header v2');
    assert.equal(resolveCredentials(def, { email: 'a@b.c', api_token: SECRET }).option, 'Basic');
  });
});
