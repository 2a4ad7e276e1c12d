// The baseline: a bare Node reverse proxy that forwards each request to the upstream and pipes the answer back,
// with a keep-alive agent like ces uses. Whatever ces adds on top of this is the cost of being ces.
// With CAPTURE=1 it also keeps every request it forwarded (method, path, headers, body), served as JSON at
// GET /__bench/captured, so a bench can replay exactly what ces sent upstream.
import http from 'node:http';

const upstream = new URL(process.env.UPSTREAM ?? '');
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

const capture = process.env.CAPTURE === '1';
const captured: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }> = [];

const server = http.createServer((req, res) => {
  if (capture && req.url === '/__bench/captured') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(captured));
    return;
  }
  if (capture) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      captured.push({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  }
  const out = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: upstream.host },
      agent,
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  out.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(out);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
