// The real server process, started exactly as the README does (bin/ces.js), for end-to-end tests.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { testStoreEnv } from './postgres.ts';
import { withoutRateLimits } from './rate-limits.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Server {
  proc: ChildProcess;
  url: string;
  stdout: () => string;
}

/** Starts `ces serve` exactly as the README does (bin/ces.js), on a free port, and waits for it to listen. */
export async function startServer(env: Record<string, string>, args: string[] = ['serve']): Promise<Server> {
  const proc = spawn(process.execPath, [path.join(ROOT, 'bin/ces.js'), ...args], {
    cwd: ROOT,
    env: withoutRateLimits({
      ...process.env,
      CES_PORT: '0',
      CES_LOG_LEVEL: 'info',
      ...env,
      ...testStoreEnv(env),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test file the runner times out must not leave a server behind.
  const reap = () => proc.kill('SIGKILL');
  process.once('exit', reap);
  proc.once('exit', () => process.removeListener('exit', reap));
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d) => {
    out += String(d);
  });
  proc.stderr?.on('data', (d) => {
    err += String(d);
  });
  const url = await new Promise<string>((resolve, reject) => {
    // A loaded machine (CI beside other work) has taken over 30 s to start a server on PostgreSQL.
    const timer = setTimeout(() => {
      clearInterval(poll);
      // Never left behind: a running child would keep the test file alive until the runner's timeout.
      proc.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}\n${err}`));
    }, 60_000);
    const poll = setInterval(() => {
      const match = /"url":"(http:\/\/[^"]+)".*"msg":"ces listening"/.exec(out);
      if (match?.[1]) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      }
    }, 50);
    proc.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}\n${err}`));
    });
  });
  return { proc, url, stdout: () => out };
}

export async function stop(server: Server): Promise<number | null> {
  return new Promise((resolve) => {
    server.proc.once('exit', (code) => resolve(code));
    server.proc.kill('SIGTERM');
  });
}

export async function call(base: string, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  return { status: res.status, json: (await res.json()) as any };
}

/**
 * Every issue number in a connector's index, paging its `search` (sorted by number) to the end; `base` gives the
 * server for each page (one, or several in turn).
 */
export async function indexedIssueNumbers(
  base: () => string,
  token: string,
  connectorId: string,
  limit = 1000,
) {
  const numbers: number[] = [];
  let cursor: string | undefined;
  do {
    const res = await call(base(), 'POST', `/api/v1/integrations/connectors/${connectorId}/execute`, token, {
      entity: 'issues',
      action: 'search',
      params: {
        query: { sort: [{ number: 'asc' }] },
        limit,
        fields: ['number'],
        ...(cursor ? { cursor } : {}),
      },
    });
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.json)}`);
    numbers.push(...res.json.result.map((r: { number: number }) => r.number));
    cursor = res.json.connector_metadata.end_cursor ?? undefined;
  } while (cursor);
  return numbers;
}
