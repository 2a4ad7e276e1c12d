// `body_format: multipart_related` with `media`: JSON metadata, then the file's exact bytes under its type.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { encodeBody } from '../../../src/connectors/runtime/body.ts';
import { ACME_YAML, loadErrors } from './helpers.ts';

describe('multipart/related bodies', () => {
  it('write the metadata as JSON and the decoded file byte for byte, between a boundary it does not hold', () => {
    const file = randomBytes(64 * 1024);
    const { content, contentType } = encodeBody(
      { name: 'a.bin', parents: ['p'], data: file.toString('base64'), type: 'application/octet-stream' },
      'multipart_related',
      { content: 'data', contentType: 'type', encoding: 'base64' },
    );
    const boundary = /^multipart\/related; boundary=(ces-[0-9a-f]{24})$/.exec(contentType)?.[1];
    assert.ok(boundary, contentType);
    const body = content as Buffer;
    const head = Buffer.from(`--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n`);
    assert.ok(body.subarray(0, head.length).equals(head));
    const between = Buffer.from(`\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const at = body.indexOf(between);
    assert.deepEqual(JSON.parse(body.subarray(head.length, at).toString()), {
      name: 'a.bin',
      parents: ['p'],
    });
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    assert.ok(body.subarray(at + between.length, body.length - tail.length).equals(file), 'the exact bytes');
    assert.ok(body.subarray(body.length - tail.length).equals(tail));
  });

  it('take text as it is', () => {
    const { content } = encodeBody({ t: 'text/plain', c: 'héllo' }, 'multipart_related', {
      content: 'c',
      contentType: 't',
      encoding: 'text',
    });
    assert.ok((content as Buffer).includes(Buffer.from('\r\n\r\nhéllo\r\n--')));
  });

  // biome-ignore lint/suspicious/noExplicitAny: the document is edited on purpose
  const create = (change: (create: any) => void) => {
    const doc = parse(ACME_YAML);
    change(doc.entities[0].actions.create);
    return loadErrors(doc, 'acme.yaml');
  };

  it('are checked at load: media named, its params body strings, the type held to a pattern', () => {
    assert.deepEqual(
      create((c) => {
        c.params.data = { type: 'string', required: true, in: 'body', description: 'Base64.' };
        c.params.kind = {
          type: 'string',
          required: true,
          in: 'body',
          pattern: '^[a-z]+/[a-z]+$',
          description: 'Type.',
        };
        c.request.body_format = 'multipart_related';
        c.request.media = { content: 'data', content_type: 'kind', encoding: 'base64' };
      }),
      [],
    );
    const without = create((c) => {
      c.request.body_format = 'multipart_related';
    });
    assert.ok(
      without.some((e) => /request\/media: a multipart_related body needs it/.test(e)),
      without.join('\n'),
    );
    const loose = create((c) => {
      c.params.data = { type: 'integer', in: 'body', description: 'Not text.' };
      c.params.kind = { type: 'string', in: 'body', description: 'Type.' };
      c.request.body_format = 'multipart_related';
      c.request.media = { content: 'data', content_type: 'kind', encoding: 'base64' };
    });
    assert.ok(
      loose.some((e) => /media\/content: 'data' must be a string body param/.test(e)),
      loose.join('\n'),
    );
    assert.ok(loose.some((e) => /params\/kind: a part's media type needs a pattern or enum/.test(e)));
    const stray = create((c) => {
      c.request.media = { content: 'title', content_type: 'title', encoding: 'text' };
    });
    assert.ok(stray.some((e) => /request\/media: only with body_format: multipart_related/.test(e)));
  });
});
