// The definition option `permission_hint` on a fictional provider that, like GitHub, answers 404 to credentials
// that may not see an entity: the declared words replace the generic advice of a refusal of that entity (on the
// kinds declared only), and the load-time checks.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { DomainError } from '../../../src/errors.ts';
import { json, runtime, startServer } from './helpers.ts';

const yaml = (entities: string) => `
id: 6a0f3c2e-5b1d-4e8f-9a7c-3d2b1e0f4a5c
slug: vault-co
name: VaultCo
icon_url: https://vault.example/icon.svg
support_level: community
documentation_url: https://vault.example/docs
base_url: https://api.vault.example
credential_options:
  - title: Token
    description: A token.
    fields: { token: { type: string, title: Token, description: The token., secret: true } }
    required: [token]
    auth: { type: bearer, token: "{token}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
errors:
  expose_body_keys: [message]
entities:
${entities}`;

const ENTITIES = `
  - name: secrets
    description: Secrets.
    primary_key: [id]
    permission_hint:
      on: [not_found]
      text: VaultCo answers 404 to a token without the secrets:read scope; add it to the token.
    actions:
      list: { description: Secrets., request: { method: GET, path: /secrets } }
  - name: notes
    description: Notes.
    primary_key: [id]
    actions:
      list: { description: Notes., request: { method: GET, path: /notes } }
`;

describe('definition option: permission_hint', () => {
  const def = parseDefinition(yaml(ENTITIES), 'vault-co.yaml');
  let api: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;
  let status = 404;
  const list = (entity: string) =>
    rt.execute({
      connectorId: 'c1',
      definition: def,
      credentials: { option: 'Token', values: { token: 'tok-7c1e9b' } },
      config: {},
      entity,
      action: 'list',
      params: {},
    });
  const refusal = async (entity: string) => {
    try {
      await list(entity);
    } catch (err) {
      assert.ok(err instanceof DomainError);
      return err;
    }
    assert.fail('expected a refusal');
  };

  before(async () => {
    api = await startServer((_req, res) => json(res, status, { message: 'Not Found' }));
    rt = runtime({ 'vault-co': api.url });
  });
  after(async () => {
    await rt.close();
    await api.close();
  });

  it("a 404 of the entity says what the token lacks, after the provider's words", async () => {
    status = 404;
    const err = await refusal('secrets');
    assert.equal(err.code, 'UPSTREAM_NOT_FOUND');
    assert.equal(
      err.message,
      'VaultCo found nothing for secrets.list (HTTP 404): Not Found. VaultCo answers 404 to a token without the secrets:read scope; add it to the token.',
    );
  });

  it('other entities, and kinds the hint does not name, keep the generic advice', async () => {
    status = 404;
    const other = await refusal('notes');
    assert.match(other.message, /Check the params and that the credentials can see the resource\.$/);
    assert.doesNotMatch(other.message, /secrets:read/);
    status = 403;
    const forbidden = await refusal('secrets');
    assert.equal(forbidden.code, 'UPSTREAM_FORBIDDEN');
    assert.doesNotMatch(forbidden.message, /secrets:read/);
  });

  it('load checks: known kinds, each once, and no placeholders', () => {
    const bad = (hint: string) => {
      try {
        parseDefinition(
          yaml(`
  - name: x
    description: X.
    primary_key: [id]
    permission_hint: ${hint}
    actions:
      list: { description: X., request: { method: GET, path: /x } }
`),
          'bad.yaml',
        );
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    assert.match(bad('{ on: [rate_limited], text: Wait. }'), /\/entities\/0\/permission_hint\/on\/0/);
    assert.match(bad('{ on: [not_found, not_found], text: Twice. }'), /\/entities\/0\/permission_hint\/on/);
    assert.match(bad('{ on: [], text: None. }'), /\/entities\/0\/permission_hint\/on/);
    assert.match(bad('{ on: [not_found] }'), /\/entities\/0\/permission_hint\/text: required/);
    assert.match(
      bad('{ on: [not_found], text: "Grant {scope} to the token." }'),
      /\/entities\/0\/permission_hint\/text: shown as written; placeholders/,
    );
    assert.equal(bad('{ on: [not_found, forbidden], text: Grant read access. }'), '');
  });
});
