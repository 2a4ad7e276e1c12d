// A wire-faithful fake of a Confluence Cloud site (https://{site}.atlassian.net/wiki: REST API v2 under
// /wiki/api/v2, v1 under /wiki/rest/api) on a real node:http server, following Atlassian's OpenAPI descriptions
// (facts: test/reference/providers/confluence.json) and, where they are silent, developer.atlassian.com (rate
// limiting, error bodies). `url` is the site's Confluence root (`${origin}/wiki`), as the connector's base URL.
// On the kit (test/connectors/kit), in its order: an injected fault (default body: the envelope of the path's API
// version); missing or wrong Basic email:api_token → 401; over `rateLimitPerSecond` (off by default) → 429 +
// Retry-After, X-RateLimit-*; a route of routes.ts (each names its operationId); a known path with another
// method → 405, unhandled; else 404, unhandled. Attachment downloads redirect to the media host (test/connectors/atlassian-media.ts),
// another origin. Dataset: dataset.ts. Writes stamp `now()` (default Date.now), so a page created after a sync
// is the newest change.

import { type MediaHost, startMediaHost } from '../../atlassian-media.ts';
import { loadDefinition } from '../../kit/definition.ts';
import { type Fault, perSecond, type RecordedRequest, startFake } from '../../kit/index.ts';
import { CursorCodec } from '../../kit/paging.ts';
import { Router } from '../../kit/router.ts';
import { type AttachmentRec, Dataset, type DatasetOptions, type UserRec } from './dataset.ts';
import { Renderer } from './render.ts';
import { type Ctx, routes } from './routes.ts';
import {
  basicMatches,
  CONFLUENCE_FAKE_API_TOKEN,
  CONFLUENCE_FAKE_EMAIL,
  errorFor,
  rateLimited,
  send,
  unauthenticated,
  WIKI,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';
export { CONFLUENCE_FAKE_API_TOKEN, CONFLUENCE_FAKE_EMAIL } from './wire.ts';

/** A second account: a site member without the Confluence Administrator permission (no audit log). */
export const CONFLUENCE_FAKE_MEMBER_EMAIL = 'member@example.com';
export const CONFLUENCE_FAKE_MEMBER_TOKEN = 'ATATT3xFfGF0cesFakeConfluenceMember=C0FFEE03';

/** A fault: `match` is a path prefix as the fake receives it, e.g. `/wiki/api/v2/pages`. */
export type ConfluenceFault = Fault & { match: string };

export interface ConfluenceFakeOptions extends Partial<DatasetOptions> {
  /** the clock writes use; default Date.now */
  now?: () => number;
  /** the most records a v1 list answers per page, whatever `limit` asks; default 100 */
  v1PageCap?: number;
  /** enforce a per-second burst limit; default off */
  rateLimitPerSecond?: number;
}

export interface ConfluenceFake {
  /** the site's Confluence root, like https://{site}.atlassian.net/wiki */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: ConfluenceFault): void;
  data: Dataset;
  me: UserRec;
  media: MediaHost<AttachmentRec>;
  close(): Promise<void>;
}

const definition = loadDefinition('confluence');

export async function startConfluenceFake(opts: ConfluenceFakeOptions = {}): Promise<ConfluenceFake> {
  const data = new Dataset({
    spaces: opts.spaces ?? 4,
    pages: opts.pages ?? 60,
    blogPosts: opts.blogPosts ?? 14,
    groups: opts.groups ?? 23,
    audit: opts.audit ?? 240,
    ...(opts.largeAttachmentBytes === undefined ? {} : { largeAttachmentBytes: opts.largeAttachmentBytes }),
  });
  const me = data.users[0] as UserRec;
  me.email = CONFLUENCE_FAKE_EMAIL;
  const member = data.users[1] as UserRec;
  member.email = CONFLUENCE_FAKE_MEMBER_EMAIL;
  const asMedia = (a: AttachmentRec) => ({
    id: a.fileId,
    bytes: a.bytes,
    mimeType: a.mediaType,
    filename: a.title,
  });
  const media = await startMediaHost<AttachmentRec>({
    find: (id) => {
      const a = data.attachments.find((x) => x.fileId === id);
      return a === undefined ? undefined : asMedia(a);
    },
    of: asMedia,
    key: 'confluence-fake-media-key',
    client: '3b1e2c4d-8f0a-4a6b-9c7d-1e2f3a4b5c6d',
  });
  const site = { origin: '' };
  const render = new Renderer(data, site);
  const router = new Router<Ctx>(
    routes({
      data,
      render,
      cursors: new CursorCodec(),
      now: opts.now ?? Date.now,
      v1PageCap: opts.v1PageCap ?? 100,
      mediaUrl: (id) => {
        const att = data.attachments.find((a) => a.id === id);
        return att === undefined ? undefined : media.urlFor(att);
      },
    }),
  );
  const methods = [...new Set(router.routes.map((r) => r.method))];

  const fake = await startFake<Ctx>({
    definition,
    routes: router,
    authenticate: (recorded) => {
      if (basicMatches(recorded.headers, CONFLUENCE_FAKE_EMAIL, CONFLUENCE_FAKE_API_TOKEN))
        return { admin: true, user: me };
      if (basicMatches(recorded.headers, CONFLUENCE_FAKE_MEMBER_EMAIL, CONFLUENCE_FAKE_MEMBER_TOKEN))
        return { admin: false, user: member };
      return { refuse: unauthenticated(pathOf(recorded)) };
    },
    errors: {
      body: (status) => errorFor(WIKI, status).body,
      rateLimited,
      fault: (fault, recorded) => ({
        status: fault.status,
        headers: fault.headers ?? {},
        body: fault.body ?? errorFor(pathOf(recorded), fault.status).body,
      }),
      notFound: (recorded) => {
        const path = pathOf(recorded);
        const allow = methods.filter((m) => router.match(m, path) !== undefined);
        return allow.length > 0
          ? { status: 405, headers: { allow: allow.join(',') }, body: undefined }
          : errorFor(path, 404);
      },
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
    send,
  });
  site.origin = fake.origin;

  return {
    url: `${fake.origin}${WIKI}`,
    origin: fake.origin,
    requests: fake.requests,
    unhandled: fake.unhandled,
    failNext: (fault) => fake.failNext(fault),
    data,
    me,
    media,
    close: async () => {
      await fake.close();
      await media.close();
    },
  };
}

function pathOf(recorded: RecordedRequest): string {
  return new URL(recorded.path, 'http://fake.invalid').pathname;
}
