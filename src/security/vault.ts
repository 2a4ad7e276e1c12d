import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { MasterKey } from './keyring.ts';

const VERSION = 'v1';

/**
 * AES-256-GCM with a fresh 96-bit IV per value. The AAD binds a ciphertext to the row it belongs to, so a
 * ciphertext copied into another row (another tenant's connector) fails to decrypt instead of being used.
 */
/** A secret as stored: AES-256-GCM ciphertext (base64) and the id of the master key that sealed it. */
export interface StoredCredentials {
  ciphertext: string;
  key_id: string;
}

/** How many decrypted values a vault keeps, and for how long (see `decrypt`). */
const CACHE_ENTRIES = 1024;
const CACHE_TTL_MS = 5 * 60_000;

export class Vault {
  private readonly byId: Map<string, Buffer>;
  /**
   * Plaintexts by the exact (key id, AAD, ciphertext) they were decrypted from: every fresh read of a stored
   * secret (a sync job's, a refresh's, an execute's once the read cache has read the row again; in between
   * execute shares one parsed object, core/connectors/credential-store.ts) decrypts it, and the same bytes give
   * the same plaintext. New credentials are a new ciphertext
   * (fresh IV), a value moved to another row has another AAD, and a key no longer configured is refused before
   * the cache is read, so an entry can only ever answer for the bytes it came from.
   */
  private readonly plaintexts = new Map<string, { text: string; until: number }>();

  constructor(private readonly keys: MasterKey[]) {
    if (keys.length === 0) throw new Error('the vault needs at least one master key');
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  get activeKeyId(): string {
    return this.keys[0]!.id;
  }

  hasKey(id: string): boolean {
    return this.byId.has(id);
  }

  encrypt(plaintext: string, aad: string): StoredCredentials {
    const active = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', active.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return {
      ciphertext: [
        VERSION,
        iv.toString('base64url'),
        tag.toString('base64url'),
        ct.toString('base64url'),
      ].join('.'),
      key_id: active.id,
    };
  }

  decrypt(stored: StoredCredentials, aad: string): string {
    const key = this.byId.get(stored.key_id);
    if (!key) throw new Error(`no master key with id ${stored.key_id} is configured`);
    const cacheKey = `${stored.key_id}\u0000${aad}\u0000${stored.ciphertext}`;
    const now = Date.now();
    const hit = this.plaintexts.get(cacheKey);
    if (hit && hit.until > now) return hit.text;
    const text = this.open(key, stored, aad);
    if (this.plaintexts.size >= CACHE_ENTRIES) {
      const oldest = this.plaintexts.keys().next();
      if (!oldest.done) this.plaintexts.delete(oldest.value);
    }
    this.plaintexts.delete(cacheKey);
    this.plaintexts.set(cacheKey, { text, until: now + CACHE_TTL_MS });
    return text;
  }

  private open(key: Buffer, stored: StoredCredentials, aad: string): string {
    const [version, iv, tag, ct] = stored.ciphertext.split('.');
    if (version !== VERSION || !iv || !tag || ct === undefined)
      throw new Error('unrecognised ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}

export const connectorAad = (organizationId: string, connectorId: string) =>
  `connector:${organizationId}:${connectorId}`;
export const serverSecretAad = (name: string) => `server-secret:${name}`;
/** An organization's OAuth app secret: bound to the organization and the connector type. */
export const oauthAppAad = (organizationId: string, definitionId: string) =>
  `oauth-app:${organizationId}:${definitionId}`;
/** A consent flow's PKCE verifier, bound to its organization and state. */
export const oauthStateAad = (organizationId: string, stateId: string) =>
  `oauth-state:${organizationId}:${stateId}`;
