// Looking inside the runtime's sealed end_cursor from tests: what it holds (so a test can assert a value is in the
// plaintext before asserting it is absent from the cursor's bytes), its bytes damaged one bit at a time, and the
// signed-only cursor an older ces issued.
import { createHmac } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { CursorBinding, NextRequest } from '../../src/connectors/runtime/cursor.ts';
import { Sealer } from '../../src/security/sealed.ts';

/** The plaintext JSON of an execute cursor sealed under `key`, opened as the runtime opens it. */
export function cursorPlaintext(key: Uint8Array, cursor: string): string {
  const plain = new Sealer(key, 'execute-cursor').open(cursor);
  if (plain === undefined) throw new Error('not a cursor sealed under this key');
  return (plain[0] === 1 ? inflateRawSync(plain.subarray(1)) : plain.subarray(1)).toString('utf8');
}

/** Every byte of a token, decoded: for asserting what it does not reveal. */
export function cursorBytes(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString('latin1');
}

/** The cursor with bit `bit` of its decoded bytes flipped. */
export function flipBit(cursor: string, bit: number): string {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[bit >> 3] = (bytes[bit >> 3] as number) ^ (1 << (bit & 7));
  return bytes.toString('base64url');
}

/** A cursor as ces issued them before they were sealed: `base64url(JSON) . base64url(HMAC-SHA256)`. */
export function legacyCursor(key: Uint8Array, binding: CursorBinding, req: NextRequest): string {
  const payload = { v: 1, cid: binding.connectorId, ent: binding.entity, act: binding.action, req };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(`ces-cursor.v1.${body}`).digest('base64url')}`;
}

/** A legacy cursor's JSON edited and given its old signature: a forgery the signature must catch. */
export function editedLegacyCursor(cursor: string, edit: (json: string) => string): string {
  const [body, mac] = cursor.split('.') as [string, string];
  return `${Buffer.from(edit(Buffer.from(body, 'base64url').toString())).toString('base64url')}.${mac}`;
}
