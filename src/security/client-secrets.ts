import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client ids and secrets are server-generated random values with readable prefixes (so a leaked one is easy
 * to recognise in a scanner). Secrets carry 256 bits, so a keyed hash is enough; a slow KDF would add nothing.
 */
export function newClientId(): string {
  return `ces_ci_${randomBytes(16).toString('hex')}`;
}

export function newClientSecret(): string {
  return `ces_cs_${randomBytes(32).toString('base64url')}`;
}

export function hashClientSecret(pepper: Buffer, secret: string): string {
  return `hmac-sha256:${createHmac('sha256', pepper).update(secret, 'utf8').digest('hex')}`;
}

export function verifyClientSecret(pepper: Buffer, secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashClientSecret(pepper, secret), 'utf8');
  const expected = Buffer.from(storedHash, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
