// download()'s reading of the answer's headers (Range, Content-Range, a UTF-8 file name, a chunked body),
// against a small local server; the streaming itself is tested against ces (e2e/api.ts).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Ces } from '../src/index.ts';

const FILE = Buffer.from('0123456789abcdef');
let seenRange: string | undefined;
let seenBody: unknown;
const server = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  seenBody = JSON.parse(body);
  seenRange = req.headers.range;
  const headers = {
    'content-type': 'application/pdf',
    'content-disposition': `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
  };
  if (req.headers.range === 'bytes=2-5') {
    res.writeHead(206, { ...headers, 'content-length': '4', 'content-range': `bytes 2-5/${FILE.length}` });
    return res.end(FILE.subarray(2, 6));
  }
  res.writeHead(200, headers); // chunked: no Content-Length
  res.write(FILE.subarray(0, 8));
  res.end(FILE.subarray(8));
});
let ces: Ces;

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ces = new Ces({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't' });
});
after(() => server.close());

async function bytes(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

test('a whole file, chunked: no size, the UTF-8 file name', async () => {
  const file = await ces.download('c1', { entity: 'attachments', params: { id: 7 } });
  assert.deepEqual(seenBody, { entity: 'attachments', action: 'download', params: { id: 7 } });
  assert.equal(seenRange, undefined);
  assert.deepEqual(
    [file.status, file.contentType, file.filename, file.size, file.contentRange],
    [200, 'application/pdf', 'résumé.pdf', undefined, undefined],
  );
  assert.deepEqual(await bytes(file.body), FILE);
});

test('a range: the Range header sent, 206 with its Content-Range and size', async () => {
  const file = await ces.download('c1', { entity: 'attachments', params: { id: 7 }, range: 'bytes=2-5' });
  assert.equal(seenRange, 'bytes=2-5');
  assert.deepEqual([file.status, file.size, file.contentRange], [206, 4, 'bytes 2-5/16']);
  assert.equal((await bytes(file.body)).toString(), '2345');
});
