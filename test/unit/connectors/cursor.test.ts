import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { CursorCodec } from '../../../src/connectors/runtime/cursor.ts';
import { DomainError } from '../../../src/core/errors.ts';

const codec = new CursorCodec(new Uint8Array(32).fill(1));
const binding = { connectorId: 'c-1', entity: 'issues', action: 'list' };
const next = { url: 'https://api.github.com/repositories/1/issues?per_page=3&page=2' };

function rejects(fn: () => unknown, pattern: RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DomainError);
    assert.equal(err.code, 'INVALID_CURSOR');
    assert.equal(err.errors[0]?.field, 'params.cursor');
    assert.match(err.message, pattern);
    return true;
  });
}

describe('CursorCodec', () => {
  it('round-trips the next request for the same connector, entity and action', () => {
    const cursor = codec.sign(binding, next);
    assert.match(cursor, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(codec.verify(binding, cursor), next);
  });

  it('signs with HMAC-SHA256 over the context and the payload, for short, block-sized and long keys', () => {
    // Keys longer than SHA-256's 64-byte block are hashed first (RFC 2104): the codec must agree with
    // node:crypto's own HMAC on every side of that edge, and cursors it signed before stay valid.
    for (const length of [16, 32, 63, 64, 65, 200]) {
      const key = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      const cursor = new CursorCodec(key).sign(binding, next);
      const [body, mac] = cursor.split('.') as [string, string];
      const expected = createHmac('sha256', key).update(`ces-cursor.v1.${body}`).digest('base64url');
      assert.equal(mac, expected, `key of ${length} bytes`);
    }
  });

  it('rejects a modified payload, a modified or truncated signature, and garbage', () => {
    const cursor = codec.sign(binding, next);
    const [body, mac] = cursor.split('.') as [string, string];
    const forgedBody = Buffer.from(
      Buffer.from(body, 'base64url').toString().replace('page=2', 'page=9'),
    ).toString('base64url');
    rejects(() => codec.verify(binding, `${forgedBody}.${mac}`), /not a cursor issued by this service/);
    const flipped = mac.slice(0, -1) + (mac.endsWith('A') ? 'B' : 'A');
    rejects(() => codec.verify(binding, `${body}.${flipped}`), /not a cursor issued/);
    rejects(() => codec.verify(binding, cursor.slice(0, -5)), /not a cursor issued/);
    rejects(() => codec.verify(binding, body), /not a cursor issued/);
    rejects(() => codec.verify(binding, `${cursor}.x`), /not a cursor issued/);
    rejects(() => codec.verify(binding, ''), /non-empty end_cursor string/);
    rejects(() => codec.verify(binding, 42), /non-empty end_cursor string/);
    rejects(() => codec.verify(binding, 'x'.repeat(40_000)), /non-empty end_cursor string/);
  });

  it('rejects a cursor signed with another key', () => {
    const other = new CursorCodec(new Uint8Array(32).fill(2));
    rejects(() => codec.verify(binding, other.sign(binding, next)), /not a cursor issued/);
  });

  it('rejects a cursor of another connector, entity or action', () => {
    const cursor = codec.sign(binding, next);
    rejects(() => codec.verify({ ...binding, connectorId: 'c-2' }, cursor), /different connector/);
    rejects(
      () => codec.verify({ ...binding, entity: 'pull_requests' }, cursor),
      /issued for issues\.list, not pull_requests\.list/,
    );
    rejects(() => codec.verify({ ...binding, action: 'api_search' }, cursor), /issued for issues\.list/);
  });

  it('refuses short keys', () => {
    assert.throws(() => new CursorCodec(new Uint8Array(8)), /at least 16 bytes/);
  });
});
