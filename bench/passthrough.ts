// The baseline: a bare Node reverse proxy that forwards each request to the upstream and pipes the answer back,
// with a keep-alive agent like ces uses. Whatever ces adds on top of this is the cost of being ces.
import http from 'node:http';

const upstream = new URL(process.env.UPSTREAM ?? '');
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

const server = http.createServer((req, res) => {
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
