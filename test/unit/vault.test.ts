import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { masterKey } from '../../src/security/keyring.ts';
import { signValue, verifyValue } from '../../src/security/signed.ts';
import { type StoredCredentials, Vault } from '../../src/security/vault.ts';

/** `stored` with one bit of its `part`-th dot-separated piece (2: the auth tag, 3: the ciphertext) flipped. */
function flipped(stored: StoredCredentials, part: number): StoredCredentials {
  const parts = stored.ciphertext.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  parts[part] = bytes.toString('base64url');
  return { ...stored, ciphertext: parts.join('.') };
}

test('round trip, fresh IV per value, key id beside the ciphertext', () => {
  const vault = new Vault([masterKey(randomBytes(32))]);
  const a = vault.encrypt('secret', 'row-1');
  const b = vault.encrypt('secret', 'row-1');
  assert.notEqual(a.ciphertext, b.ciphertext);
  assert.equal(a.key_id, vault.activeKeyId);
  assert.ok(!a.ciphertext.includes('secret'));
  assert.equal(vault.decrypt(a, 'row-1'), 'secret');
});

test('a ciphertext moved to another row, or altered, does not decrypt', () => {
  const vault = new Vault([masterKey(randomBytes(32))]);
  const stored = vault.encrypt('secret', 'connector:org-a:1');
  assert.throws(() => vault.decrypt(stored, 'connector:org-b:1'));
  assert.throws(() => vault.decrypt(flipped(stored, 3), 'connector:org-a:1'));
});

test('old keys still decrypt after a new one is put first; unknown key ids are refused', () => {
  const oldKey = masterKey(randomBytes(32));
  const stored = new Vault([oldKey]).encrypt('secret', 'x');
  const both = new Vault([masterKey(randomBytes(32)), oldKey]);
  assert.equal(both.decrypt(stored, 'x'), 'secret');
  assert.notEqual(both.activeKeyId, oldKey.id);
  assert.throws(() => new Vault([masterKey(randomBytes(32))]).decrypt(stored, 'x'), /no master key/);
});

test('signed values reject tampering and other purposes', () => {
  const key = randomBytes(32);
  const token = signValue(key, 'a', { n: 1 });
  assert.deepEqual(verifyValue(key, 'a', token), { n: 1 });
  assert.equal(verifyValue(key, 'b', token), undefined);
  assert.equal(verifyValue(randomBytes(32), 'a', token), undefined);
  const [body, mac] = token.split('.');
  const forged = `${Buffer.from('{"n":2}').toString('base64url')}.${mac}`;
  assert.equal(verifyValue(key, 'a', forged), undefined);
  assert.equal(verifyValue(key, 'a', `${body}`), undefined);
});

test('a decrypted value is remembered only for the exact bytes and row it came from', () => {
  const vault = new Vault([masterKey(randomBytes(32))]);
  const stored = vault.encrypt('secret', 'connector:org-a:1');
  assert.equal(vault.decrypt(stored, 'connector:org-a:1'), 'secret');
  assert.equal(vault.decrypt(stored, 'connector:org-a:1'), 'secret');
  // Remembered for org-a's row: the same ciphertext in another row still fails.
  assert.throws(() => vault.decrypt(stored, 'connector:org-b:1'));
  assert.throws(() => vault.decrypt(flipped(stored, 2), 'connector:org-a:1'));
  assert.throws(() => vault.decrypt({ ...stored, key_id: 'gone' }, 'connector:org-a:1'));
});
