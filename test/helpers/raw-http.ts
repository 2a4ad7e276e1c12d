// One HTTP/1.1 exchange on a fresh socket, for tests that replay a client's exact bytes (inject() would add
// headers of its own): the response read by its Content-Length or its chunked framing.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
}

export function exchange(port: number, bytes: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      const split = got.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine = '', ...lines] = got.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = got.subarray(split + 4);
      let body: Buffer | undefined;
      if (headers['transfer-encoding'] === 'chunked') body = dechunk(rest);
      else {
        const length = Number(headers['content-length']);
        if (!Number.isInteger(length)) {
          socket.destroy();
          reject(new Error(`neither Content-Length nor chunked framing in ${statusLine}`));
          return;
        }
        if (rest.length >= length) body = rest.subarray(0, length);
      }
      if (!body) return;
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]), headers, body });
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/** The body of a complete chunked message, or undefined while chunks are still to come. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < eol + 2 + size + 2) return undefined;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
