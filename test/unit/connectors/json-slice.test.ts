import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { WASM_MAX_BYTES } from '../../../src/connectors/runtime/bracket-scan.ts';
import { atPath } from '../../../src/connectors/runtime/dpath.ts';
import {
  arrayElements,
  cutList,
  cutWholeList,
  jsonSlice,
} from '../../../src/connectors/runtime/json-slice.ts';
import { recordsPayload, recordTexts } from '../../../src/connectors/runtime/payload.ts';

const slice = (text: string, path: string[]) => jsonSlice(Buffer.from(text), path)?.toString('utf8');

describe('jsonSlice', () => {
  it("finds a list nested under a key as the provider's bytes", () => {
    const text =
      '{"tickets": [ {"id": 1, "subject": "a \\"quoted\\" ]}"} , {"id":2}],"next_page":null,"count":2}';
    assert.equal(slice(text, ['tickets']), '[ {"id": 1, "subject": "a \\"quoted\\" ]}"} , {"id":2}]');
    assert.equal(slice(text, ['count']), '2');
    assert.equal(slice(text, ['next_page']), 'null');
    assert.equal(slice('{"data":{"issues":{"nodes":[1,2]}}}', ['data', 'issues', 'nodes']), '[1,2]');
  });

  it('answers undefined where the parsed document has nothing, or the path goes through an array', () => {
    assert.equal(slice('{"a":1}', ['b']), undefined);
    assert.equal(slice('{}', ['a']), undefined);
    assert.equal(slice('[{"a":1}]', ['0', 'a']), undefined);
    assert.equal(slice('{"a":[1]}', ['a', '0']), undefined);
    assert.equal(slice('{"a":1}', []), undefined);
  });

  it('takes the last of a repeated key, as JSON.parse does, and decodes escaped keys', () => {
    assert.equal(slice('{"a":[1],"b":0,"a":[2]}', ['a']), '[2]');
    assert.equal(slice('{"\\u0074ickets":[3]}', ['tickets']), '[3]');
    assert.equal(slice('{"a\\\\":[4]}', ['a\\']), '[4]');
  });

  it('is what JSON.parse finds at the path, for any document and layout', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('a', 'tickets', 'é', '"', '\\', '}'));
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue(), { minKeys: 1 }),
        fc.nat(),
        fc.constantFrom(0, 2, '\t'),
        (doc, pick, indent) => {
          const keys = Object.keys(doc);
          const path = [keys[pick % keys.length] as string];
          const text = JSON.stringify(doc, null, indent);
          const found = slice(text, path);
          assert.notEqual(found, undefined);
          assert.deepEqual(JSON.parse(found as string), atPath(JSON.parse(text), path));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('arrayElements', () => {
  const elements = (text: string) => {
    const doc = Buffer.from(text);
    const bounds = arrayElements(doc);
    if (!bounds) return undefined;
    const out: string[] = [];
    for (let i = 0; i < bounds.length; i += 2) out.push(doc.toString('utf8', bounds[i], bounds[i + 1]));
    return out;
  };

  it("cuts an array into its elements' bytes", () => {
    assert.deepEqual(elements(String.raw` [ {"a":"]},\\"} , [1,[2]] ,null,"x",-1.5e3 ] `), [
      String.raw`{"a":"]},\\"}`,
      '[1,[2]]',
      'null',
      '"x"',
      '-1.5e3',
    ]);
    assert.deepEqual(elements('[]'), []);
    assert.equal(elements('{"a":[1]}'), undefined);
    assert.equal(elements(''), undefined);
  });

  it('gives each element as JSON.parse reads it, for any array and layout', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.constantFrom(0, 2, '\t'), (list, indent) => {
        const text = JSON.stringify(list, null, indent);
        const found = elements(text);
        assert.deepEqual(
          found?.map((e) => JSON.parse(e)),
          JSON.parse(text),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("gives the sync each record's text only when the result is the list of those bytes", () => {
    const json = Buffer.from('[{"id":1,"t":"é"},{"id":2}]');
    const records = JSON.parse(json.toString('utf8'));
    assert.deepEqual(recordTexts(recordsPayload(records, json)), ['{"id":1,"t":"é"}', '{"id":2}']);
    assert.equal(recordTexts(recordsPayload(records)), undefined);
    assert.equal(recordTexts(recordsPayload([{ id: 1 }], json)), undefined);
    assert.equal(recordTexts(recordsPayload({ id: 1 }, Buffer.from('{"id":1}'))), undefined);
    // Bytes nobody parsed are not split here: the store that takes them parses them itself.
    const source = { provider: 'Acme', operation: 'things.list' };
    assert.equal(recordTexts({ kind: 'bytes', parts: [json], source }), undefined);
  });
});

describe('cutList', () => {
  const cut = (text: string, path: string[]) => {
    const found = cutList([Buffer.from(text)], path);
    return found && { list: Buffer.concat(found.list).toString('utf8'), envelope: found.envelope };
  };

  it('cuts a nested list out of its envelope, the last of a repeated key as JSON.parse reads it', () => {
    assert.deepEqual(cut('{"next":"a]","tickets": [{"id":1}, {"s":"]}"}] ,"count":2}', ['tickets']), {
      list: '[{"id":1}, {"s":"]}"}]',
      envelope: '{"next":"a]","tickets": [] ,"count":2}',
    });
    const twice = cut('{"a":[1],"b":{"c":[2]},"a":[3]}', ['a'])!;
    assert.equal(twice.list, '[3]');
    assert.deepEqual(JSON.parse(twice.envelope), { a: [], b: { c: [2] } });
    assert.equal(cut('{"data":{"nodes":[4]}}', ['data', 'nodes'])?.list, '[4]');
  });

  it('takes a whole-document list from its first to its last bracket, for the reader to parse', () => {
    assert.deepEqual(cut(' \n[1, {"a":2}]\n ', []), { list: '[1, {"a":2}]', envelope: '[]' });
    // Not one list: the bytes go to whoever parses them, who refuses them.
    assert.equal(cut('[1] [2]', [])?.list, '[1] [2]');
  });

  it('answers undefined where there is no list', () => {
    assert.equal(cut('{"tickets":{"id":1}}', ['tickets']), undefined);
    assert.equal(cut('{"other":[1]}', ['tickets']), undefined);
    assert.equal(cut('{"id":1}', []), undefined);
    assert.equal(cut('[1', []), undefined);
    assert.equal(cut('{"tickets":[1,2}', ['tickets']), undefined);
  });
});

describe('cutWholeList', () => {
  /** `text` cut at `cuts` (offsets, any order, repeats give empty chunks). */
  const split = (text: Buffer, cuts: number[]) => {
    const at = [...cuts.map((c) => c % (text.length + 1)), 0, text.length].sort((a, b) => a - b);
    return at.slice(1).map((end, i) => text.subarray(at[i], end));
  };

  it('cuts the bracketed text between the blanks from the chunks, however it arrived', () => {
    const doc = fc.oneof(
      fc.array(fc.jsonValue()).map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ unit: fc.constantFrom('[', ']', ' ', '\n', 'a', '{', '}') }),
    );
    const space = fc.string({ unit: fc.constantFrom(' ', '\n', '\t', '\r') });
    fc.assert(
      fc.property(doc, space, space, fc.array(fc.nat(), { maxLength: 6 }), (body, before, after, cuts) => {
        const text = Buffer.from(`${before}${body}${after}`);
        const parts = split(text, cuts);
        const got = cutWholeList(parts);
        // Worked out on the joined text, another way: the text without JSON's blanks at either end, if it is
        // at least `[]` long and bracketed.
        const bare = text.toString('utf8').replace(/^[ \n\r\t]+|[ \n\r\t]+$/g, '');
        const want = bare.length >= 2 && bare.startsWith('[') && bare.endsWith(']') ? bare : undefined;
        assert.equal(got && Buffer.concat(got.list).toString('utf8'), want);
        assert.equal(got?.envelope, want && '[]');
        // Bytes of the chunks, not copies: nothing was joined.
        const within = (piece: Buffer, p: Buffer) =>
          p.buffer === piece.buffer &&
          piece.byteOffset >= p.byteOffset &&
          piece.byteOffset + piece.length <= p.byteOffset + p.length;
        if (got) for (const piece of got.list) assert.ok(parts.some((p) => within(piece, p)));
      }),
      { numRuns: 2000 },
    );
  });

  it('skips chunks of spaces alone at either end, and refuses a lone bracket or nothing', () => {
    const chunks = (...texts: string[]) => cutWholeList(texts.map((t) => Buffer.from(t)));
    assert.deepEqual(chunks(' ', '', '\n[1,', '2]', ' \n', '')?.list.map(String), ['[1,', '2]']);
    assert.deepEqual(chunks('  [', ']  ')?.list.map(String), ['[', ']']);
    assert.equal(chunks('  [', '  '), undefined);
    assert.equal(chunks('[', ''), undefined);
    assert.equal(chunks(' ', ''), undefined);
    assert.equal(chunks(), undefined);
    assert.equal(chunks('{"a":', '[1]}'), undefined);
  });
});

describe('cutList of a document in chunks', () => {
  const split = (text: Buffer, cuts: number[]) => {
    const at = [...cuts.map((c) => c % (text.length + 1)), 0, text.length].sort((a, b) => a - b);
    return at.slice(1).map((end, i) => text.subarray(at[i], end));
  };
  const within = (piece: Buffer, parts: Buffer[]) =>
    parts.some(
      (p) =>
        p.buffer === piece.buffer &&
        piece.byteOffset >= p.byteOffset &&
        piece.byteOffset + piece.length <= p.byteOffset + p.length,
    );
  const same = (parts: Buffer[], path: readonly string[]) => {
    const got = cutList(parts, path);
    const want = cutList([Buffer.concat(parts)], path);
    assert.equal(
      got && Buffer.concat(got.list).toString('utf8'),
      want && Buffer.concat(want.list).toString('utf8'),
    );
    assert.equal(got?.envelope, want?.envelope);
    for (const piece of got?.list ?? []) assert.ok(within(piece, parts), 'a range of a chunk, not a copy');
  };

  it('cuts the same nested list from the chunks as from the joined document, however it arrived', () => {
    // Envelopes with the list at `tickets` or `data.nodes`, or not there at all.
    const envelope = fc.record({
      tickets: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 5 }), fc.jsonValue()),
      next: fc.jsonValue(),
      data: fc.option(fc.record({ nodes: fc.array(fc.jsonValue(), { maxLength: 3 }) })),
    });
    fc.assert(
      fc.property(
        envelope,
        fc.constantFrom(0, 2),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom(['tickets'], ['data', 'nodes'], ['missing']),
        (value, indent, cuts, path) =>
          same(split(Buffer.from(JSON.stringify(value, null, indent)), cuts), path),
      ),
      { numRuns: 1000 },
    );
  });

  it('joins a document too large for the scanner first, with the same answer', () => {
    const ticket = JSON.stringify({ id: 1, subject: 'x'.repeat(1000), tags: ['a', ']'] });
    const text = `{"tickets":[${Array.from({ length: Math.ceil(WASM_MAX_BYTES / ticket.length) + 1 }, () => ticket).join(',')}],"next_page":null}`;
    assert.ok(text.length > WASM_MAX_BYTES);
    same(split(Buffer.from(text), [100_000, 2_000_000, 3_900_000]), ['tickets']);
  });
});
