import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque, tamper-evident values handed to clients (page cursors): base64url JSON plus an HMAC over it and a
 * purpose label, so a value minted for one purpose is refused by another.
 */
export function signValue(key: Uint8Array, purpose: string, value: unknown): string {
  const body = Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return `${body}.${mac(key, purpose, body)}`;
}

export function verifyValue(key: Uint8Array, purpose: string, token: string): unknown {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(mac(key, purpose, body), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function mac(key: Uint8Array, purpose: string, body: string): string {
  return createHmac('sha256', key).update(purpose).update('\0').update(body).digest('base64url');
}
