import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomFillSync,
} from 'node:crypto';

/**
 * Opaque values handed to clients that must reveal nothing of what they hold (page cursors name upstream hosts,
 * paths, queries and search bodies) and must not be forged or altered: AES-256-GCM, one fresh random nonce per
 * value, under a key derived with HKDF-SHA256 from a server secret and a purpose label, so a value sealed for
 * one purpose never opens under another and no new secret has to be configured.
 *
 * Layout, base64url: version (1) ‖ key id (1) ‖ nonce (12) ‖ ciphertext ‖ tag (16). The two header bytes and
 * the caller's binding are the additional authenticated data. The key id names which server secret sealed the
 * value, so that when that secret is rotated, the old one (still given, after the new one) opens the values
 * issued before. Random 96-bit nonces keep a key safe for 2^32 values (NIST SP 800-38D), far beyond the pages
 * a server serves under one cursor secret.
 */
const VERSION = 2;
const HEADER = 2;
const NONCE = 12;
const TAG = 16;
/** The shortest sealed value (an empty plaintext), in bytes. */
const MIN_BYTES = HEADER + NONCE + TAG;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

interface DerivedKey {
  id: number;
  key: KeyObject;
}

export class Sealer {
  /** Newest first: keys[0] seals, every key opens what it sealed. */
  private readonly keys: DerivedKey[];

  constructor(secrets: Uint8Array | readonly Uint8Array[], purpose: string) {
    const list = secrets instanceof Uint8Array ? [secrets] : secrets;
    if (list.length === 0) throw new Error('a sealer needs at least one secret');
    this.keys = list.map((secret) => {
      if (secret.length < 16) throw new Error('a sealing secret must be at least 16 bytes');
      const derived = hkdfSync('sha256', secret, 'ces-sealed', `ces-sealed.v${VERSION}\0${purpose}`, 32);
      return { id: keyId(secret), key: createSecretKey(Buffer.from(derived)) };
    });
  }

  seal(plaintext: Uint8Array, binding: Uint8Array = EMPTY): string {
    const { id, key } = this.keys[0] as DerivedKey;
    const out = Buffer.allocUnsafe(MIN_BYTES + plaintext.length);
    out[0] = VERSION;
    out[1] = id;
    const nonce = freshNonce(out, HEADER);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(aad(out, binding));
    const written = cipher.update(plaintext).copy(out, HEADER + NONCE);
    cipher.final();
    cipher.getAuthTag().copy(out, HEADER + NONCE + written);
    return out.toString('base64url');
  }

  /**
   * The plaintext, or undefined for anything this sealer did not seal with this binding: malformed, modified,
   * truncated, another purpose, another binding, or a key no longer given. Callers bound the length first.
   */
  open(token: string, binding: Uint8Array = EMPTY): Buffer | undefined {
    if (!BASE64URL.test(token)) return undefined;
    const bytes = Buffer.from(token, 'base64url');
    // Base64url leaves spare bits in the last character: only the canonical spelling is ours, so no edit of
    // the text, down to one bit, opens.
    if (bytes.length < MIN_BYTES || bytes[0] !== VERSION || bytes.toString('base64url') !== token) {
      return undefined;
    }
    const nonce = bytes.subarray(HEADER, HEADER + NONCE);
    const ciphertext = bytes.subarray(HEADER + NONCE, bytes.length - TAG);
    const tag = bytes.subarray(bytes.length - TAG);
    const header = aad(bytes, binding);
    for (const { id, key } of this.keys) {
      if (id !== bytes[1]) continue;
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG });
      decipher.setAAD(header);
      decipher.setAuthTag(tag);
      const plain = decipher.update(ciphertext);
      try {
        decipher.final();
        return plain;
      } catch {
        // Not this key (two secrets may share an id byte): try the next one.
      }
    }
    return undefined;
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Nonces come from a pool filled from the CSPRNG 256 at a time (one call costs as much as the rest of a seal);
 * each is used once and then wiped, so none can be handed out twice.
 */
const pool = Buffer.alloc(NONCE * 256);
let poolAt = pool.length;

function freshNonce(into: Buffer, at: number): Buffer {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  pool.copy(into, at, poolAt, poolAt + NONCE);
  pool.fill(0, poolAt, poolAt + NONCE);
  poolAt += NONCE;
  return into.subarray(at, at + NONCE);
}

function aad(sealed: Buffer, binding: Uint8Array): Buffer {
  return Buffer.concat([sealed.subarray(0, HEADER), binding]);
}

/** One byte naming a secret, derived from it (the same secret always has the same id); never the key itself. */
function keyId(secret: Uint8Array): number {
  return createHash('sha256').update('ces-sealed-key-id\0').update(secret).digest()[0] as number;
}

/** Sealers by secret and purpose, so a verb that seals on every call derives its key once. */
const cache = new WeakMap<Uint8Array, Map<string, Sealer>>();

function sealerFor(secret: Uint8Array, purpose: string): Sealer {
  let byPurpose = cache.get(secret);
  if (!byPurpose) {
    byPurpose = new Map();
    cache.set(secret, byPurpose);
  }
  let sealer = byPurpose.get(purpose);
  if (!sealer) {
    sealer = new Sealer(secret, purpose);
    byPurpose.set(purpose, sealer);
  }
  return sealer;
}

/** A JSON value sealed for `purpose`, opening only with the same `binding` (e.g. the query it continues). */
export function sealValue(secret: Uint8Array, purpose: string, value: unknown, binding: string): string {
  return sealerFor(secret, purpose).seal(Buffer.from(JSON.stringify(value), 'utf8'), Buffer.from(binding));
}

/** The value sealValue sealed, or undefined for any token it did not seal with this purpose and binding. */
export function openValue(secret: Uint8Array, purpose: string, token: string, binding: string): unknown {
  const plain = sealerFor(secret, purpose).open(token, Buffer.from(binding));
  if (plain === undefined) return undefined;
  try {
    return JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
}
