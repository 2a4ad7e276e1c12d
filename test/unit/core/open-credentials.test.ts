// The credentials of a connector call: decrypted and parsed once per stored value the read cache keeps, shared
// (frozen) by the calls that use it, and never handed to a call on another connector.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { openConnectorCall } from '../../../src/core/connectors/credential-store.ts';
import { masterKey } from '../../../src/security/keyring.ts';
import { connectorAad, Vault } from '../../../src/security/vault.ts';
import type { Store } from '../../../src/store/port.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const vault = new Vault([masterKey(randomBytes(32))]);
const deps = { vault, store: {} as Store };
const seal = (token: string, connectorId: string) =>
  vault.encrypt(
    JSON.stringify({ option: 'PAT Credentials', values: { personal_access_token: token } }),
    connectorAad('org-1', connectorId),
  );
const connector = (id: string) => ({ id, replication_config: {} });

test('one stored value: one decrypted object, shared and frozen', () => {
  const stored = seal('ghp_one', 'c-1');
  const a = openConnectorCall(deps, 'org-1', connector('c-1'), stored, github).credentials;
  const b = openConnectorCall(deps, 'org-1', connector('c-1'), stored, github).credentials;
  assert.equal(a, b);
  assert.equal(a.values.personal_access_token, 'ghp_one');
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.values));
  assert.throws(() => {
    (a.values as Record<string, string>).personal_access_token = 'changed';
  }, TypeError);
});

test('new credentials (a new stored value) are decrypted anew', () => {
  const first = openConnectorCall(deps, 'org-1', connector('c-2'), seal('ghp_old', 'c-2'), github);
  const second = openConnectorCall(deps, 'org-1', connector('c-2'), seal('ghp_new', 'c-2'), github);
  assert.equal(first.credentials.values.personal_access_token, 'ghp_old');
  assert.equal(second.credentials.values.personal_access_token, 'ghp_new');
});

test('a stored value opened for one connector is not handed to a call on another', () => {
  const stored = seal('ghp_mine', 'c-3');
  openConnectorCall(deps, 'org-1', connector('c-3'), stored, github);
  assert.throws(() => openConnectorCall(deps, 'org-1', connector('c-4'), stored, github));
  assert.throws(() => openConnectorCall(deps, 'org-2', connector('c-3'), stored, github));
});
