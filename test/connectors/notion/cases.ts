// Notion cases of the definition-driven suite, over the Notion fake's seeded dataset
// (test/connectors/notion/fake/dataset.ts): its ids are deterministic UUIDs, read from the dataset rather than
// spelled out. Refusals come from the fake itself: an id it does not know (404 object_not_found) or an API
// version it does not serve (400 missing_version), so no fault needs injecting.

import type { Cases } from '../suite/types.ts';
import type { Dataset } from './fake/dataset.ts';

/** A well-formed UUID that names nothing in the workspace. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
/** Notion refuses a version it does not know with 400 missing_version. */
const unknownVersion = { params: { 'Notion-Version': '2019-01-01' }, code: 'INVALID_PARAMS' as const };

export function notionCases(data: Dataset): Cases {
  const person = data.users[1];
  const source = data.dataSources[0];
  const subpage = data.pages.find((p) => p.parent.type === 'page_id');
  const paragraph = [...data.blocks.values()].find((b) => b.type === 'paragraph');
  const file = [...data.blocks.values()].find((b) => b.type === 'file' && b.file !== undefined);
  if (!person || !source || !subpage || !paragraph || !file)
    throw new Error('the Notion fake seeded too few users, data sources, pages or blocks');
  const handbook = data.handbookId;
  return {
    // 56 pages (and 8 data sources) shared with the integration: a page size of 20 spans three pages.
    'pages.list': { happy: { page_size: 20 }, error: unknownVersion },
    'pages.get': { happy: { page_id: handbook }, error: { params: { page_id: MISSING_ID }, code: notFound } },
    'pages.create': {
      happy: {
        parent: { page_id: handbook },
        properties: { title: [{ text: { content: 'Written by the suite' } }] },
        children: [{ paragraph: { rich_text: [{ text: { content: 'A first paragraph.' } }] } }],
      },
      error: {
        params: { parent: { page_id: MISSING_ID }, properties: { title: [{ text: { content: 'Lost' } }] } },
        code: notFound,
      },
    },
    'pages.update': {
      happy: { page_id: subpage.id, icon: { type: 'emoji', emoji: '✅' } },
      error: { params: { page_id: MISSING_ID, in_trash: false }, code: notFound },
    },
    // Started with pageSize 5, the fake answers the 8 data sources in two pages.
    'data_sources.list': {
      happy: {},
      // Version 2022-06-28 knows databases, not data sources: Notion refuses the search filter.
      error: { params: { 'Notion-Version': '2022-06-28' }, code: 'INVALID_PARAMS' },
    },
    'data_sources.get': {
      happy: { data_source_id: source.id },
      error: { params: { data_source_id: MISSING_ID }, code: notFound },
    },
    // 130 top-level blocks under the handbook (and a child page the suite creates).
    'blocks.list': {
      happy: { block_id: handbook, page_size: 50 },
      error: { params: { block_id: MISSING_ID }, code: notFound },
    },
    'blocks.get': {
      happy: { block_id: paragraph.id },
      error: { params: { block_id: MISSING_ID }, code: notFound },
    },
    'blocks.download': {
      happy: { block_id: file.id },
      error: { params: { block_id: MISSING_ID }, code: notFound },
    },
    // 24 page comments on the handbook, five per page.
    'comments.list': {
      happy: { block_id: handbook },
      error: { params: { block_id: MISSING_ID }, code: notFound },
    },
    'comments.create': {
      happy: { parent: { page_id: handbook }, rich_text: [{ text: { content: 'Checked by the suite.' } }] },
      error: {
        params: { discussion_id: MISSING_ID, rich_text: [{ text: { content: 'A reply to nothing.' } }] },
        code: notFound,
      },
    },
    // 34 users, ten per page: four pages.
    'users.list': { happy: { page_size: 10 }, error: unknownVersion },
    'users.get': {
      happy: { user_id: person.id },
      error: { params: { user_id: MISSING_ID }, code: notFound },
    },
  };
}
