// The page cursor codec as it was before cursors were sealed (signed only: base64url JSON . HMAC-SHA256 over
// precomputed pads), kept as the baseline of bench/cursor.ts. Not used by ces.
import { hash, timingSafeEqual } from 'node:crypto';
import type { CursorBinding, NextRequest } from '../src/connectors/runtime/cursor.ts';

const CONTEXT = 'ces-cursor.v1.';
const SHA256_BLOCK = 64;

export class SignedCursorCodec {
  private readonly innerPad: Buffer;
  private readonly outerPad: Buffer;

  constructor(key: Uint8Array) {
    const block = Buffer.alloc(SHA256_BLOCK);
    (key.length > SHA256_BLOCK ? hash('sha256', key, 'buffer') : Buffer.from(key)).copy(block);
    this.innerPad = Buffer.from(block.map((b) => b ^ 0x36));
    this.outerPad = Buffer.from(block.map((b) => b ^ 0x5c));
  }

  sign(binding: CursorBinding, req: NextRequest): string {
    const payload = { v: 1, cid: binding.connectorId, ent: binding.entity, act: binding.action, req };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  verify(binding: CursorBinding, cursor: string): NextRequest {
    const [body, mac, extra] = cursor.split('.');
    if (body === undefined || mac === undefined || extra !== undefined) throw new Error('forged');
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('forged');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (
      payload.cid !== binding.connectorId ||
      payload.ent !== binding.entity ||
      payload.act !== binding.action
    ) {
      throw new Error('foreign');
    }
    return payload.req;
  }

  private mac(body: string): Buffer {
    const inner = hash('sha256', Buffer.concat([this.innerPad, Buffer.from(CONTEXT + body)]), 'buffer');
    return hash('sha256', Buffer.concat([this.outerPad, inner]), 'buffer');
  }
}
