import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CursorCodec, type NextRequest } from '../../../src/connectors/runtime/cursor.ts';
import { DomainError } from '../../../src/errors.ts';
import {
  cursorBytes,
  cursorPlaintext,
  editedLegacyCursor,
  flipBit,
  legacyCursor,
} from '../../helpers/cursors.ts';

const KEY = new Uint8Array(32).fill(1);
const codec = new CursorCodec(KEY);
const binding = { connectorId: '3f2b9c1e-7a4d-4e8b-9c21-5d6f7a8b9c0d', entity: 'issues', action: 'list' };
const next = { url: 'https://api.github.com/repositories/1296269/issues?state=all&per_page=100&page=2' };
/** A GitHub Enterprise link-header next page with an API version header the client chose. */
const enterprise: NextRequest = {
  url: 'https://github.corp-example.com/api/v3/repos/payments-team/ledger/pulls?state=open&sort=updated&per_page=50&page=3',
  headers: { 'x-github-api-version': '2022-11-28' },
};
/** A Gong body-paged POST search: the first request's body with the provider's cursor set. */
const gong: NextRequest = {
  url: 'https://us-55616.api.gong.io/v2/calls/extensive',
  body: {
    filter: {
      fromDateTime: '2024-01-01T00:00:00Z',
      toDateTime: '2024-06-30T23:59:59Z',
      workspaceId: '5562739194953732039',
    },
    contentSelector: {
      context: 'Extended',
      exposedFields: { parties: true, content: { brief: true, topics: true } },
    },
    cursor: 'eyJjYWxsSWQiOjc3ODIzNDI1MjM0NTYzNDIzNDUsInRvdGFsIjozNDV9',
  },
};
const SECRETS: Array<[NextRequest, string[]]> = [
  [
    enterprise,
    ['github.corp-example.com', '/api/v3/repos', 'payments-team', 'ledger', 'sort=updated', '2022-11-28'],
  ],
  [
    gong,
    [
      'us-55616.api.gong.io',
      'calls/extensive',
      '5562739194953732039',
      '2024-06-30T23:59:59Z',
      'Extended',
      'eyJjYWxsSWQi',
    ],
  ],
];

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
    for (const req of [next, enterprise, gong]) {
      const cursor = codec.sign(binding, req);
      assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      assert.deepEqual(codec.verify(binding, cursor), req);
    }
  });

  it("reveals none of the request's host, path, query, headers, body or the connector", () => {
    for (const [req, secrets] of SECRETS) {
      const cursor = codec.sign(binding, req);
      const plaintext = cursorPlaintext(KEY, cursor);
      const signedOnly = cursorBytes(legacyCursor(KEY, binding, req).split('.')[0] as string);
      for (const secret of [...secrets, binding.connectorId, binding.entity]) {
        // What the cursor carries, and what a signed-only cursor of the same request showed to anyone.
        assert.ok(plaintext.includes(secret), `the plaintext holds ${secret}`);
        assert.ok(signedOnly.includes(secret), `a signed cursor shows ${secret}`);
        assert.ok(!cursorBytes(cursor).includes(secret), `the sealed cursor hides ${secret}`);
        assert.ok(!cursor.includes(secret), `the cursor's text hides ${secret}`);
      }
    }
  });

  it('seals every cursor with a fresh nonce: two cursors of one request differ and both work', () => {
    const a = codec.sign(binding, gong);
    const b = codec.sign(binding, gong);
    assert.notEqual(a, b);
    assert.notEqual(cursorBytes(a).slice(2, 14), cursorBytes(b).slice(2, 14), 'nonces differ');
    assert.deepEqual(codec.verify(binding, a), gong);
    assert.deepEqual(codec.verify(binding, b), gong);
  });

  it('refuses the cursor with any one bit flipped, truncated, extended or respelled', () => {
    let respellings = 0;
    for (const req of [next, enterprise, gong]) {
      const cursor = codec.sign(binding, req);
      const bits = Buffer.from(cursor, 'base64url').length * 8;
      for (let bit = 0; bit < bits; bit++) {
        rejects(() => codec.verify(binding, flipBit(cursor, bit)), /not a cursor issued by this service/);
      }
      for (let cut = 1; cut < cursor.length; cut += 7) {
        rejects(() => codec.verify(binding, cursor.slice(0, cut)), /not a cursor issued/);
      }
      rejects(() => codec.verify(binding, `${cursor}A`), /not a cursor issued/);
      rejects(() => codec.verify(binding, `${cursor}=`), /not a cursor issued/);
      rejects(() => codec.verify(binding, ` ${cursor}`), /not a cursor issued/);
      // The spare low bits of a last character decode to the same bytes: only the issued spelling is ours.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const last = alphabet.indexOf(cursor.at(-1) as string);
      const respelled = `${cursor.slice(0, -1)}${alphabet[last ^ 1]}`;
      if (cursor.length % 4 !== 0) {
        assert.deepEqual(Buffer.from(respelled, 'base64url'), Buffer.from(cursor, 'base64url'));
        respellings++;
      }
      rejects(() => codec.verify(binding, respelled), /not a cursor issued/);
    }
    assert.ok(respellings > 0, 'a cursor with spare bits was respelled');
    rejects(() => codec.verify(binding, 'AgA'), /not a cursor issued/);
    rejects(() => codec.verify(binding, ''), /non-empty end_cursor string/);
    rejects(() => codec.verify(binding, 42), /non-empty end_cursor string/);
    rejects(() => codec.verify(binding, 'x'.repeat(40_000)), /non-empty end_cursor string/);
  });

  it('rejects a cursor sealed with another key', () => {
    const other = new CursorCodec(new Uint8Array(32).fill(2));
    rejects(() => codec.verify(binding, other.sign(binding, next)), /not a cursor issued/);
  });

  it('rejects a cursor of another connector, entity or action, saying which', () => {
    const cursor = codec.sign(binding, next);
    rejects(() => codec.verify({ ...binding, connectorId: 'c-2' }, cursor), /different connector/);
    rejects(
      () => codec.verify({ ...binding, entity: 'pull_requests' }, cursor),
      /issued for issues\.list, not pull_requests\.list/,
    );
    rejects(() => codec.verify({ ...binding, action: 'api_search' }, cursor), /issued for issues\.list/);
  });

  it('stays short: a body-paged search is deflated, a short link is not padded out', () => {
    const json = (req: NextRequest) =>
      JSON.stringify([binding.connectorId, binding.entity, binding.action, req.url, req.body ?? null, null]);
    const sealedLength = (plainBytes: number) => Math.ceil(((2 + 12 + 16 + 1 + plainBytes) * 4) / 3);
    // The short link's payload is sealed as it is; the search body's comes out well under its JSON.
    assert.equal(codec.sign(binding, next).length, sealedLength(Buffer.byteLength(json(next))));
    assert.ok(codec.sign(binding, gong).length < sealedLength(Buffer.byteLength(json(gong))) * 0.85);
    assert.equal(cursorPlaintext(KEY, codec.sign(binding, gong)), json(gong));
  });

  it('opens cursors of a key being rotated out while sealing with the new one', () => {
    const oldKey = new Uint8Array(32).fill(3);
    const newKey = new Uint8Array(32).fill(4);
    const before = new CursorCodec(oldKey).sign(binding, next);
    const rotating = new CursorCodec([newKey, oldKey]);
    assert.deepEqual(rotating.verify(binding, before), next);
    const after = rotating.sign(binding, next);
    assert.deepEqual(new CursorCodec(newKey).verify(binding, after), next);
    rejects(() => new CursorCodec(oldKey).verify(binding, after), /not a cursor issued/);
  });

  it('accepts the signed cursors issued before cursors were sealed, with the same checks', () => {
    const signed = legacyCursor(KEY, binding, enterprise);
    assert.deepEqual(codec.verify(binding, signed), enterprise);
    rejects(() => codec.verify({ ...binding, connectorId: 'c-2' }, signed), /different connector/);
    rejects(() => codec.verify({ ...binding, entity: 'commits' }, signed), /issued for issues\.list/);
    rejects(
      () =>
        codec.verify(
          binding,
          editedLegacyCursor(signed, (json) => json.replace('page=3', 'page=9')),
        ),
      /not a cursor issued/,
    );
    rejects(() => codec.verify(binding, `${signed}.x`), /not a cursor issued/);
    rejects(
      () => codec.verify(binding, legacyCursor(new Uint8Array(32).fill(2), binding, next)),
      /not a cursor/,
    );
  });

  it('refuses short keys', () => {
    assert.throws(() => new CursorCodec(new Uint8Array(8)), /at least 16 bytes/);
  });
});
