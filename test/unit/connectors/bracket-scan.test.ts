import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  bracketEndJs,
  bracketEnds,
  WASM_MAX_BYTES,
  withJoinedInMemory,
} from '../../../src/connectors/runtime/bracket-scan.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
/** Text made mostly of the bytes the rule cares about, so brackets, strings and escapes meet often. */
const tricky = fc
  .array(fc.constantFrom('{', '}', '[', ']', '"', '\\', 'a', ' ', ',', ':', 'é', '\\"', '\\\\'), {
    maxLength: 200,
  })
  .map((parts) => parts.join(''));

describe('bracket scan', () => {
  it('ends a value where its brackets close, skipping strings and their escapes', () => {
    const text = '{"a": "}\\"]", "b": [1, {"c": "\\\\"}], "d": "\\u005d"} tail ]';
    const end = text.indexOf(' tail');
    assert.equal(bracketEnds(bytes(text))(0), end);
    assert.equal(bracketEndJs(bytes(text), 0), end);
    // From an inner value: the array under "b".
    const b = text.indexOf('[1');
    assert.equal(bracketEnds(bytes(text))(b), text.indexOf(', "d"'));
  });

  it('answers -1 when the text ends inside the value or inside a string', () => {
    for (const text of ['{"a": [1, 2]', '["abc', '["abc\\', '{', '["\\"]'])
      assert.equal(bracketEnds(bytes(text))(0), -1, text);
  });

  it('ends any JSON object or array at the length of its text (JSON.stringify as the oracle)', () => {
    const value = fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()));
    fc.assert(
      fc.property(value, fc.constantFrom(0, 2, '\t'), fc.string(), (v, indent, tail) => {
        const text = JSON.stringify(v, null, indent);
        const doc = bytes(`${text}${tail}`);
        assert.equal(bracketEnds(doc)(0), Buffer.byteLength(text));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same answer from WebAssembly and from JavaScript on any bytes, valid JSON or not', () => {
    fc.assert(
      fc.property(tricky, fc.nat(), (text, pick) => {
        const doc = bytes(text);
        const opens = [...doc.keys()].filter((i) => doc[i] === 0x7b || doc[i] === 0x5b);
        const finder = bracketEnds(doc);
        for (const at of opens.length > 0 ? [opens[pick % opens.length] as number, ...opens] : [0])
          assert.equal(finder(at), bracketEndJs(doc, at), `${JSON.stringify(text)} at ${at}`);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps each finder's document apart when finders of two documents take turns", () => {
    const first = bytes('[[1], "]]]"]');
    const second = bytes('{"x": {}}   ');
    const a = bracketEnds(first);
    const b = bracketEnds(second);
    assert.equal(a(0), first.length);
    assert.equal(b(0), 9);
    assert.equal(a(1), 4);
    assert.equal(b(6), 8);
  });

  it('scans a document given in chunks as if joined, and refuses one above its memory limit', () => {
    fc.assert(
      fc.property(tricky, fc.array(fc.nat(), { maxLength: 5 }), (text, cuts) => {
        const doc = bytes(text);
        const at = [...cuts.map((c) => c % (doc.length + 1)), 0, doc.length].sort((a, b) => a - b);
        const parts = at.slice(1).map((end, i) => doc.subarray(at[i], end));
        const opens = [...doc.keys()].filter((i) => doc[i] === 0x5b || doc[i] === 0x7b);
        const got = withJoinedInMemory(parts, (joined, ends) => {
          assert.ok(joined.equals(doc));
          return opens.map((i) => ends(i));
        });
        assert.deepEqual(
          got,
          opens.map((i) => bracketEndJs(doc, i)),
        );
      }),
      { numRuns: 500 },
    );
    const big = Buffer.alloc(WASM_MAX_BYTES / 2 + 1, 0x20);
    assert.equal(
      withJoinedInMemory([big, big], () => assert.fail('not called')),
      undefined,
    );
  });

  it('will not answer from a document copied over the one in use', () => {
    assert.throws(
      () =>
        withJoinedInMemory([bytes('[[]]')], (_doc, ends) => {
          bracketEnds(bytes('{"other": 1}'))(0);
          return ends(0);
        }),
      /replaced while in use/,
    );
  });

  it('reads documents larger than its first page, and past its memory limit by the JavaScript loop', () => {
    const item = '{"s":"\\"]}","n":[1,2,{"k":null}]}';
    for (const size of [200 * 1024, WASM_MAX_BYTES + 1024]) {
      const items = Array.from({ length: Math.ceil(size / (item.length + 1)) }, () => item);
      const text = `[${items.join(',')}]`;
      const doc = bytes(`${text} `);
      assert.ok(doc.length > size);
      assert.equal(bracketEnds(doc)(0), text.length);
      // A small document after the big one still gets its own answer.
      assert.equal(bracketEnds(bytes('[[]] '))(0), 4);
    }
  });
});
