import { randomBytes } from 'node:crypto';
import { serverSecretAad, type Vault } from '../../security/vault.ts';
import type { Store } from '../../store/port.ts';

/**
 * Secrets the server itself needs (token signing, client-secret hashing, sealing and signing cursors) live in
 * the database, encrypted under the master key like credentials, so there is one key to keep safe and
 * `ces keys rotate` covers them too. Generated on first start.
 */
export interface ServerSecrets {
  jwtSigningKey: Buffer;
  clientSecretPepper: Buffer;
  cursorKey: Buffer;
}

const NAMES = {
  jwtSigningKey: 'jwt_signing_key',
  clientSecretPepper: 'client_secret_pepper',
  cursorKey: 'cursor_signing_key',
} as const;

async function loadOne(store: Store, vault: Vault, name: string, now: string): Promise<Buffer> {
  const existing = await store.serverSecrets.get(name);
  const stored =
    existing ??
    (await store.serverSecrets.putIfAbsent(
      name,
      vault.encrypt(randomBytes(32).toString('base64'), serverSecretAad(name)),
      now,
    ));
  return Buffer.from(vault.decrypt(stored, serverSecretAad(name)), 'base64');
}

export async function loadServerSecrets(store: Store, vault: Vault, now: string): Promise<ServerSecrets> {
  return {
    jwtSigningKey: await loadOne(store, vault, NAMES.jwtSigningKey, now),
    clientSecretPepper: await loadOne(store, vault, NAMES.clientSecretPepper, now),
    cursorKey: await loadOne(store, vault, NAMES.cursorKey, now),
  };
}
