import type { MasterKey } from '../../security/keyring.ts';
import { connectorAad, oauthAppAad, serverSecretAad, Vault } from '../../security/vault.ts';
import type { Store } from '../../store/port.ts';

/**
 * Re-encrypts every stored secret (connector credentials, OAuth app secrets, server secrets) under `newKey`, in one
 * transaction: after a crash either every row uses the new key or none does. `oldKeys` must include every key
 * a row may currently use.
 */
export async function rotateKeys(store: Store, oldKeys: MasterKey[], newKey: MasterKey) {
  const reader = new Vault([newKey, ...oldKeys.filter((k) => k.id !== newKey.id)]);
  const writer = new Vault([newKey]);
  return store.transaction(async (tx) => {
    let connectors = 0;
    for (const row of await tx.connectors.listCredentialsForRotation()) {
      const aad = connectorAad(row.organization_id, row.id);
      const plaintext = reader.decrypt(row, aad);
      await tx.connectors.replaceCredentialsForRotation(row.id, writer.encrypt(plaintext, aad));
      connectors++;
    }
    let serverSecrets = 0;
    for (const row of await tx.serverSecrets.list()) {
      const aad = serverSecretAad(row.name);
      await tx.serverSecrets.replace(row.name, writer.encrypt(reader.decrypt(row, aad), aad));
      serverSecrets++;
    }
    let oauthApps = 0;
    for (const row of await tx.oauthApps.listForRotation()) {
      const aad = oauthAppAad(row.organization_id, row.definition_id);
      await tx.oauthApps.replaceSecretForRotation(row.id, writer.encrypt(reader.decrypt(row, aad), aad));
      oauthApps++;
    }
    return { connectors, serverSecrets, oauthApps, keyId: newKey.id };
  });
}
