// Confluence cases of the definition-driven suite, over the fake's seeded site (fake/dataset.ts): ids are read
// from the dataset rather than spelled out. Refusals come from the fake where Confluence refuses on its own (an
// id it does not know: 404); a list takes any params it validates, so its refusal is an injected answer of the
// provider (a 400 of v2, a 403 of v1's admin-only and permission-checked lists).
import type { Cases } from '../suite/types.ts';
import type { Dataset } from './fake/dataset.ts';
import { V1, V2 } from './fake/wire.ts';

/** A well-formed id that names nothing on the site. */
export const MISSING_ID = 1;

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const refused = (match: string, status: 400 | 403) => ({
  params: {},
  code: status === 400 ? ('INVALID_PARAMS' as const) : ('UPSTREAM_FORBIDDEN' as const),
  fault: { status, match },
});

export function confluenceCases(data: Dataset): Cases {
  const page = data.content.find((c) => c.kind === 'page' && c.parentId !== null);
  const post = data.content.find((c) => c.kind === 'blogpost');
  const space = data.spaces.find((s) => s.type === 'global');
  const attachment = data.attachments[0];
  if (!page || !post || !space || !attachment)
    throw new Error('the Confluence fake seeded too few pages, blog posts, spaces or attachments');
  return {
    // 64 pages (60 and each space's homepage), current and archived: 20 a page spans four pages.
    'pages.list': { happy: { limit: 20, 'body-format': 'storage' }, error: refused(`${V2}/pages`, 400) },
    'pages.get': {
      happy: { id: page.id, 'body-format': 'storage' },
      error: { params: { id: MISSING_ID }, code: notFound },
    },
    'pages.create': {
      happy: {
        spaceId: space.id,
        title: 'Written by the suite',
        body: { representation: 'storage', value: '<p>A first paragraph.</p>' },
      },
      error: { params: { spaceId: String(MISSING_ID), title: 'Lost' }, code: notFound },
    },
    // 14 blog posts, five a page.
    'blog_posts.list': { happy: { limit: 5 }, error: refused(`${V2}/blogposts`, 400) },
    'blog_posts.get': { happy: { id: post.id }, error: { params: { id: MISSING_ID }, code: notFound } },
    // 4 spaces, two a page.
    'spaces.list': {
      happy: { limit: 2, 'description-format': 'plain' },
      error: refused(`${V2}/spaces`, 400),
    },
    'spaces.get': {
      happy: { id: space.id, 'description-format': 'plain' },
      error: { params: { id: MISSING_ID }, code: notFound },
    },
    'attachments.get': { happy: { id: attachment.id }, error: { params: { id: 'att1' }, code: notFound } },
    'attachments.download': {
      happy: { id: attachment.id },
      error: { params: { id: 'att1' }, code: notFound },
    },
    // 23 groups, ten a page.
    'groups.list': { happy: { limit: 10 }, error: refused(`${V1}/group`, 403) },
    // 240 records; the fake answers at most 100 a page whatever limit asks (Confluence's "fixed system limits").
    'audit.list': { happy: { limit: 1000 }, error: refused(`${V1}/audit`, 403) },
  };
}
