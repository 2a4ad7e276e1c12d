// Gong cases of the definition-driven suite, over the Gong fake's seeded dataset (test/connectors/gong/fake/dataset.ts):
// its ids are deterministic but long, so they are read from the dataset rather than spelled out. Calls are
// scheduled every 5 hours from 2024-01-01T08:00:00Z; every workspace has a root library folder
// (routes-more.ts). Lists without ids to miss get a 403 from Gong injected.

import type { Cases, Fault } from '../suite/types.ts';
import type { Dataset } from './fake/dataset.ts';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const forbidden = (path: string, params: Record<string, unknown> = {}) => ({
  params,
  code: 'UPSTREAM_FORBIDDEN' as const,
  fault: { status: 403, match: `/v2${path}` } satisfies Fault,
});
/** The first root library folder (routes-more.ts: per workspace i, root 3843152912968920000 + 2i). */
const ROOT_FOLDER = '3843152912968920000';
const january = { fromDateTime: '2024-01-01T00:00:00Z', toDateTime: '2024-02-01T00:00:00Z' };
const statsWindow = { fromDate: '2024-01-01', toDate: '2024-01-31' };

export function gongCases(data: Dataset): Cases {
  const call = data.calls[4];
  const video = data.calls.find((c) => c.media === 'Video');
  const manager = data.users[1];
  const ws = data.workspaces[0];
  if (!call || !video || !manager || !ws) throw new Error('the Gong fake seeded too few calls or users');
  return {
    'users.list': { happy: {}, error: forbidden('/users') },
    'users.get': { happy: { id: manager.id }, error: { params: { id: '1' }, code: notFound } },
    'calls.list': { happy: january, error: forbidden('/calls', january) },
    'calls.get': { happy: { id: call.id }, error: { params: { id: '123' }, code: notFound } },
    'calls_extensive.list': {
      happy: { filter: january },
      error: { params: { filter: { callIds: ['1'] } }, code: notFound },
    },
    'calls_extensive.api_search': {
      happy: { ...january, parties: true },
      error: forbidden('/calls/extensive', january),
    },
    'call_transcripts.list': {
      happy: { filter: january },
      error: { params: { filter: { callIds: ['1'] } }, code: notFound },
    },
    'workspaces.list': { happy: {}, error: forbidden('/workspaces') },
    'call_audio.download': {
      happy: { filter: { callIds: [call.id] } },
      error: { params: { filter: { callIds: ['1'] } }, code: notFound },
    },
    'call_video.download': {
      happy: { filter: { callIds: [video.id] } },
      error: { params: { filter: { callIds: ['1'] } }, code: notFound },
    },
    // Gong refuses a stats window that ends in the future.
    'stats_activity_aggregate.list': {
      happy: { filter: statsWindow },
      error: { params: { filter: { fromDate: '2024-01-01', toDate: '2999-01-01' } }, code: 'INVALID_PARAMS' },
    },
    'stats_activity_day_by_day.list': {
      happy: { filter: statsWindow },
      error: { params: { filter: { fromDate: '2024-01-01', toDate: '2999-01-01' } }, code: 'INVALID_PARAMS' },
    },
    'stats_interaction.list': {
      happy: { filter: statsWindow },
      error: { params: { filter: { fromDate: '2024-01-01', toDate: '2999-01-01' } }, code: 'INVALID_PARAMS' },
    },
    // The definition checks every filter member the fake would refuse, so the refusal is injected.
    'stats_activity_scorecards.list': { happy: {}, error: forbidden('/stats/activity/scorecards') },
    'settings_scorecards.list': { happy: {}, error: forbidden('/settings/scorecards') },
    // Gong answers an unknown workspace's trackers as an empty list, so the refusal is injected.
    'settings_trackers.list': { happy: {}, error: forbidden('/settings/trackers') },
    'library_folders.list': {
      happy: { workspaceId: ws.id },
      error: { params: { workspaceId: '1' }, code: 'INVALID_PARAMS' },
    },
    'library_folder_content.list': {
      happy: { folderId: ROOT_FOLDER },
      error: { params: { folderId: '42' }, code: notFound },
      single_page: 'Gong answers a folder’s calls in one page; the fake’s folders hold a few calls each',
    },
    'coaching.list': {
      happy: {
        'workspace-id': ws.id,
        'manager-id': manager.id,
        from: '2024-01-01T00:00:00Z',
        to: '2024-03-01T00:00:00Z',
      },
      error: {
        params: {
          'workspace-id': ws.id,
          'manager-id': '1',
          from: '2024-01-01T00:00:00Z',
          to: '2024-03-01T00:00:00Z',
        },
        code: 'INVALID_PARAMS',
      },
    },
  };
}
