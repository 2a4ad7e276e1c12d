import type { GithubFake } from '../../../../test/connectors/github/fake/index.ts';
import type { Server } from '../../../../test/helpers/server-process.ts';
import type { Ces } from '../../src/index.ts';

/** What e2e.test.ts starts for the suites (filled in by its before hook). */
export interface E2e {
  fake: GithubFake;
  server: Server;
  /** The bootstrap application's. */
  credentials: { clientId: string; clientSecret: string };
  /** A client with those credentials. */
  ces: Ces;
}
