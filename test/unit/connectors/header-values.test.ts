// Values that end up in an HTTP header are the caller's to get right: a credential or a header-placed param with
// a line break, a control character or a character beyond Latin-1 is answered as a 422 naming the field, before
// anything is sent (undici would refuse it at send time, which used to come back as a 502 "could not reach").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { parse, stringify } from 'yaml';
import { resolveCredentials } from '../../../src/connectors/credentials.ts';
import { parseDefinition } from '../../../src/connectors/load.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { transportError } from '../../../src/connectors/runtime/http.ts';
import { assertHeaderParam, resolveAction, validateParams } from '../../../src/connectors/runtime/params.ts';
import { DomainError } from '../../../src/errors.ts';
import { ACME_CONFIG, ACME_YAML, acme, json, runtime, startServer } from './helpers.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const UNSENDABLE = [
  'ghp_abc\r\nX-Injected: 1',
  'ghp_abc\n',
  'ghp_\u0000abc',
  'ghp_ab\tc',
  'ghp_ąbc',
  'ghp_abc😀',
];

function rejected(fn: () => unknown, code: string, field: string, secret: string): DomainError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.message);
    assert.deepEqual(
      err.errors.map((e) => e.field),
      [field],
    );
    const shown = JSON.stringify({ message: err.message, errors: err.errors, extra: err.extra });
    assert.ok(!shown.includes(secret), `the value leaked: ${shown}`);
    return err;
  }
  assert.fail(`expected ${code}`);
}

describe('credential values placed in a header are checked when resolved', () => {
  it('a bearer token a header cannot carry is INVALID_CREDENTIALS naming the field as given', () => {
    for (const value of UNSENDABLE) {
      rejected(
        () => resolveCredentials(github, { personal_access_token: value }),
        'INVALID_CREDENTIALS',
        'credentials.personal_access_token',
        value,
      );
      rejected(
        () => resolveCredentials(github, { token: value }),
        'INVALID_CREDENTIALS',
        'credentials.token',
        value,
      );
    }
    const err = rejected(
      () => resolveCredentials(github, { option_title: 'OAuth Credentials', access_token: 'gho_ą' }),
      'INVALID_CREDENTIALS',
      'credentials.access_token',
      'gho_ą',
    );
    assert.match(err.message, /beyond U\+00FF/);
  });

  it('a header option checks its template fields; basic and query placements take any text', () => {
    const def = acme();
    rejected(
      () => resolveCredentials(def, { option_title: 'Header', token: 'tok\r\nen' }),
      'INVALID_CREDENTIALS',
      'credentials.token',
      'tok\r\nen',
    );
    assert.equal(
      resolveCredentials(def, { email: 'zoë@łódź.example', api_token: 'pässwörd—ą' }).option,
      'Basic',
    );
    assert.equal(resolveCredentials(def, { api_key: 'ключ-ą' }).option, 'API Key');
  });

  it('Latin-1 text is sendable and accepted', () => {
    assert.equal(
      resolveCredentials(github, { personal_access_token: 'ghp_é_ÿ' }).values.personal_access_token,
      'ghp_é_ÿ',
    );
  });
});

describe('header-placed params', () => {
  const doc = parse(ACME_YAML) as { entities: unknown[] };
  doc.entities.push({
    name: 'etags',
    description: 'Conditional reads.',
    primary_key: ['id'],
    actions: {
      get: {
        description: 'One thing, if changed.',
        params: {
          id: { type: 'string', required: true, description: 'Id.' },
          if_none_match: { type: 'string', in: 'header', api_name: 'If-None-Match', description: 'ETag.' },
          accept_language: {
            type: 'array',
            items: { type: 'string' },
            in: 'header',
            api_name: 'Accept-Language',
            description: 'Languages.',
          },
        },
        request: { method: 'GET', path: '/etags/{id}' },
      },
    },
  });
  const def = parseDefinition(stringify(doc), 'acme.yaml');
  const resolved = resolveAction(def, 'etags', 'get');

  it('refuses CR/LF, control characters and non-Latin-1 text as INVALID_PARAMS naming the param', () => {
    for (const bad of ['"x"\r\nX-Injected: 1', '"x"\u0007', '"ą"']) {
      rejected(
        () => validateParams(resolved, { id: '1', if_none_match: bad }),
        'INVALID_PARAMS',
        'params.if_none_match',
        '\u0000never-shown',
      );
    }
    rejected(
      () => validateParams(resolved, { id: '1', accept_language: ['en', 'pl\r\n'] }),
      'INVALID_PARAMS',
      'params.accept_language',
      '\u0000never-shown',
    );
    validateParams(resolved, { id: '1', if_none_match: 'W/"é-1"', accept_language: ['en', 'pl'] });
  });

  it('a path or query param may hold any text (it is percent-encoded)', () => {
    validateParams(resolved, { id: 'ą\r\n' });
  });

  it('assertHeaderParam does the same for a value sent as a header outside the declared params', () => {
    rejected(
      () => assertHeaderParam('range_header', 'bytes=0-1\r\nX-Injected: 1'),
      'INVALID_PARAMS',
      'params.range_header',
      '\u0000never-shown',
    );
    assertHeaderParam('range_header', 'bytes=0-99');
  });
});

describe('credentials stored before the check', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;
  before(async () => {
    server = await startServer((_req, res) => json(res, 200, { id: 1 }));
    rt = runtime({ acme: server.url });
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  it('fail as a 422 naming the field, and nothing is sent', async () => {
    const call = (credentials: { option: string; values: Record<string, string> }) =>
      rt.execute({
        connectorId: 'c',
        definition: acme(),
        credentials,
        config: ACME_CONFIG,
        entity: 'things',
        action: 'get',
        params: { folder: 'f', id: 1 },
      });
    await assert.rejects(call({ option: 'Header', values: { token: 'tøkęn' } }), (err) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, 'INVALID_CREDENTIALS');
      assert.deepEqual(
        err.errors.map((e) => e.field),
        ['credentials.token'],
      );
      assert.ok(!err.message.includes('tøkęn'));
      return true;
    });
    assert.equal(server.seen.length, 0);
    // Basic credentials travel base64-encoded, so the same text is fine there.
    await call({ option: 'Basic', values: { email: 'zoë@example.com', api_token: 'tøkęn' } });
    const sent = String(server.seen[0]?.headers.authorization).replace(/^Basic /, '');
    assert.equal(Buffer.from(sent, 'base64').toString('utf8'), 'zoë@example.com/token:tøkęn');
  });
});

describe('a header value undici still refuses at send time', () => {
  it('is a 4xx saying the request could not be sent, not a 502 "could not reach"', async () => {
    let thrown: unknown;
    try {
      await request('http://127.0.0.1:9/', { headers: { 'x-value': 'ą' } });
    } catch (err) {
      thrown = err;
    }
    const out = transportError(thrown, {
      timedOut: false,
      stage: 'connect',
      provider: 'Acme',
      timeoutMs: 1,
      host: '127.0.0.1:9',
    });
    assert.equal(out.code, 'BAD_REQUEST', out.message);
    assert.match(out.message, /could not be sent/);
  });
});
