// The Gong API v2 routes the fake serves. Each route names the help.gong.io reference page it follows; the
// machine-readable form of the same reference is Gong's OpenAPI document (operationIds listUsers, getUser,
// listCalls, getCall, listCallsExtensive, getCallTranscripts, getWorkspaces).
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import { type CursorCodec, canonical, queryInputs } from '../../kit/paging.ts';
import { type CallRecord, Dataset, type User } from './dataset.ts';
import { createMoreRoutes } from './routes-more.ts';
import { errorBody, MESSAGES, parseDateTime, requestId } from './wire.ts';

/** The reference page of each route. */
export const DOCS = {
  users: 'https://help.gong.io/apidocs/list-all-users-v2users',
  user: 'https://help.gong.io/apidocs/retrieve-user-v2usersid-2',
  calls: 'https://help.gong.io/apidocs/retrieve-call-data-by-date-range-v2calls-2',
  call: 'https://help.gong.io/apidocs/retrieve-data-for-a-specific-call-v2callsid',
  extensive: 'https://help.gong.io/apidocs/retrieve-detailed-call-data-by-various-filters-v2callsextensive-2',
  transcript:
    'https://help.gong.io/apidocs/retrieve-transcripts-of-calls-by-date-or-callids-v2callstranscript-2',
  workspaces: 'https://help.gong.io/apidocs/list-all-company-workspaces-v2workspaces',
} as const;

const malformed = (detail: string): Answer => ({
  status: 400,
  body: errorBody(`${MESSAGES.malformed}: ${detail}`),
});
const ok = (body: Record<string, unknown>): Answer => ({
  status: 200,
  body: { requestId: requestId(), ...body },
});

export function createRoutes(
  data: Dataset,
  cursors: CursorCodec,
  pageSize: number,
  media: (call: CallRecord, kind: 'audio' | 'video') => string,
) {
  /**
   * One page of a list. `inputs` are the request's other inputs: Gong requires them unchanged on the next
   * page, and a cursor presented with different ones is refused.
   */
  const paged = <T>(
    all: readonly T[],
    route: string,
    inputs: string,
    cursor: unknown,
  ): { records: Record<string, unknown>; items: T[] } | Answer => {
    let offset = 0;
    if (cursor !== undefined && cursor !== null) {
      const at = typeof cursor === 'string' ? cursors.verify(cursor, route, inputs) : undefined;
      if (at === undefined) return malformed('cursor is invalid or does not match the other request inputs');
      offset = at;
    }
    const items = all.slice(offset, offset + pageSize);
    const next = offset + items.length;
    return {
      items,
      records: {
        totalRecords: all.length,
        currentPageSize: items.length,
        currentPageNumber: Math.floor(offset / pageSize),
        // "Returned only when there are more records to be retrieved."
        ...(next < all.length ? { cursor: cursors.sign(route, next, inputs) } : {}),
      },
    };
  };

  const bodyInputs = (body: Record<string, unknown>): string => {
    const { cursor: _cursor, ...rest } = body;
    return canonical(rest);
  };

  const routes: Route[] = [
    // "List all users (/v2/users)": cursor, includeAvatars; answers {requestId, records, users}.
    {
      method: 'GET',
      path: '/v2/users',
      operation: 'listUsers',
      handle: (req) => {
        const avatars = req.query.get('includeAvatars') === 'true';
        const users = data.users.filter((u) => avatars || !u.avatar);
        const page = paged(users, 'users', queryInputs(req.query), req.query.get('cursor') ?? undefined);
        if ('status' in page) return page;
        return ok({ records: page.records, users: page.items.map(renderUser) });
      },
    },
    // "Retrieve user (/v2/users/{id})": answers {requestId, user}.
    {
      method: 'GET',
      path: '/v2/users/{id}',
      operation: 'getUser',
      handle: (req) => {
        const user = data.userById(req.params.id as string);
        return user
          ? ok({ user: renderUser(user) })
          : { status: 404, body: errorBody(MESSAGES.userNotFound) };
      },
    },
    // "List all calls (/v2/calls)": fromDateTime and toDateTime are required (from inclusive, to exclusive),
    // optional workspaceId, cursor. An empty result is a 404 "No calls found for the specified period".
    {
      method: 'GET',
      path: '/v2/calls',
      operation: 'listCalls',
      handle: (req) => {
        const from = parseDateTime(req.query.get('fromDateTime') ?? undefined);
        const to = parseDateTime(req.query.get('toDateTime') ?? undefined);
        if (from === undefined || to === undefined)
          return malformed('fromDateTime and toDateTime are required');
        if (from === 'invalid' || to === 'invalid')
          return malformed('fromDateTime and toDateTime must be ISO-8601 date-times');
        const workspaceId = req.query.get('workspaceId');
        const calls = data.calls.filter((c) => {
          const at = Dataset.filterDate(c);
          return at >= from && at < to && (workspaceId === null || c.workspaceId === workspaceId);
        });
        if (calls.length === 0) return { status: 404, body: errorBody(MESSAGES.noCalls) };
        const page = paged(calls, 'calls', queryInputs(req.query), req.query.get('cursor') ?? undefined);
        if ('status' in page) return page;
        return ok({ records: page.records, calls: page.items.map(callBasicData) });
      },
    },
    // "Retrieve data for a specific call (/v2/calls/{id})": answers {requestId, call}; 404 "Call ID was not found".
    {
      method: 'GET',
      path: '/v2/calls/{id}',
      operation: 'getCall',
      handle: (req) => {
        const call = data.callById(req.params.id as string);
        return call
          ? ok({ call: callBasicData(call) })
          : { status: 404, body: errorBody(MESSAGES.callNotFound) };
      },
    },
    // "Retrieve detailed call data by various filters (/v2/calls/extensive)": body {cursor?, filter (required):
    // {fromDateTime, toDateTime, workspaceId, callIds, primaryUserIds}, contentSelector?}; answers
    // {requestId, records, calls: [{metaData, context?, parties?, content?, interaction?, media?}]}.
    {
      method: 'POST',
      path: '/v2/calls/extensive',
      operation: 'listCallsExtensive',
      handle: (req) => {
        const filtered = postedCalls(req, true);
        if ('status' in filtered) return filtered;
        const body = req.json as Record<string, unknown>;
        const page = paged(filtered.calls, 'calls/extensive', bodyInputs(body), body.cursor);
        if ('status' in page) return page;
        const selector = isObject(body.contentSelector) ? body.contentSelector : {};
        return ok({
          records: page.records,
          calls: page.items.map((c) => extensiveCall(c, selector, media)),
        });
      },
    },
    // "Retrieve transcripts of calls (/v2/calls/transcript)": body {cursor?, filter (required): {fromDateTime,
    // toDateTime, workspaceId, callIds}}; answers {requestId, records, callTranscripts: [{callId, transcript:
    // [{speakerId, topic, sentences: [{start, end, text}]}]}]} (start/end in milliseconds).
    {
      method: 'POST',
      path: '/v2/calls/transcript',
      operation: 'getCallTranscripts',
      handle: (req) => {
        const filtered = postedCalls(req, false);
        if ('status' in filtered) return filtered;
        const body = req.json as Record<string, unknown>;
        const page = paged(filtered.calls, 'calls/transcript', bodyInputs(body), body.cursor);
        if ('status' in page) return page;
        return ok({
          records: page.records,
          callTranscripts: page.items.map((c) => ({
            callId: c.id,
            transcript: structuredClone(c.transcript),
          })),
        });
      },
    },
    // "List all company workspaces (/v2/workspaces)": not paged; answers {requestId, workspaces}.
    {
      method: 'GET',
      path: '/v2/workspaces',
      operation: 'getWorkspaces',
      handle: () => ok({ workspaces: structuredClone(data.workspaces) }),
    },
  ];

  /** The filter of the POST call searches; their dates apply to the call's start time. */
  const postedCalls = (req: RouteRequest, withOwners: boolean): { calls: CallRecord[] } | Answer => {
    if (req.json === undefined || req.json === 'invalid') return malformed('the body must be a JSON object');
    const filter = req.json.filter;
    if (!isObject(filter)) return malformed('filter is required');
    const from = parseDateTime(filter.fromDateTime);
    const to = parseDateTime(filter.toDateTime);
    if (from === 'invalid' || to === 'invalid')
      return malformed('filter.fromDateTime and filter.toDateTime must be ISO-8601 date-times');
    const ids = stringList(filter.callIds);
    const owners = withOwners ? stringList(filter.primaryUserIds) : undefined;
    if (ids === 'invalid' || owners === 'invalid')
      return malformed('filter id lists must be arrays of strings');
    const workspaceId = filter.workspaceId;
    if (workspaceId !== undefined && typeof workspaceId !== 'string')
      return malformed('filter.workspaceId must be a string');
    const calls = data.calls.filter((c) => {
      const at = Date.parse(c.started);
      if (from !== undefined && at < from) return false;
      if (to !== undefined && at >= to) return false;
      if (workspaceId !== undefined && c.workspaceId !== workspaceId) return false;
      if (ids !== undefined && !ids.includes(c.id)) return false;
      return owners === undefined || owners.includes(c.primaryUserId);
    });
    return calls.length === 0 ? { status: 404, body: errorBody(MESSAGES.noCalls) } : { calls };
  };

  const more = createMoreRoutes(
    data,
    (all, route, body) => paged(all, route, bodyInputs(body), body.cursor),
    () => new Date().toISOString().slice(0, 10),
  );

  return [...routes, ...more];
}

function renderUser(user: User): Omit<User, 'avatar'> {
  const { avatar: _avatar, ...rest } = user;
  return structuredClone(rest);
}

/** The CallBasicData schema: what /v2/calls and /v2/calls/{id} return, and `metaData` of the extensive call. */
function callBasicData(c: CallRecord) {
  return {
    id: c.id,
    url: c.url,
    title: c.title,
    scheduled: c.scheduled,
    started: c.started,
    duration: c.duration,
    primaryUserId: c.primaryUserId,
    direction: c.direction,
    system: c.system,
    scope: c.scope,
    media: c.media,
    language: c.language,
    workspaceId: c.workspaceId,
    sdrDisposition: c.sdrDisposition,
    clientUniqueId: c.clientUniqueId,
    customData: c.customData,
    purpose: c.purpose,
    meetingUrl: c.meetingUrl,
    isPrivate: c.isPrivate,
    calendarEventId: c.calendarEventId,
  };
}

/** Only what `contentSelector` asks for is returned, as Gong does; everything is off by default. */
function extensiveCall(
  c: CallRecord,
  selector: Record<string, unknown>,
  media: (call: CallRecord, kind: 'audio' | 'video') => string,
) {
  const exposed = isObject(selector.exposedFields) ? selector.exposedFields : {};
  const content = isObject(exposed.content) ? exposed.content : {};
  const interaction = isObject(exposed.interaction) ? exposed.interaction : {};
  const out: Record<string, unknown> = { metaData: callBasicData(c) };
  if (selector.context === 'Basic' || selector.context === 'Extended') {
    out.context = [
      {
        system: 'Salesforce',
        objects: [
          {
            objectType: 'Account',
            objectId: `001ces${c.id.slice(-6)}`,
            ...(selector.context === 'Extended'
              ? { fields: [{ name: 'Name', value: c.title.split(' |')[0] }] }
              : {}),
          },
        ],
      },
    ];
  }
  if (exposed.parties === true) out.parties = structuredClone(c.parties);
  const parts: Record<string, unknown> = {};
  if (content.topics === true) parts.topics = structuredClone(c.topics);
  if (content.trackers === true) parts.trackers = structuredClone(c.trackers);
  if (content.brief === true) parts.brief = c.brief;
  if (Object.keys(parts).length > 0) out.content = parts;
  if (interaction.speakers === true) {
    out.interaction = {
      speakers: c.parties.map((p, i) => ({
        id: p.speakerId,
        userId: p.userId,
        talkTime: Math.round(c.duration * (i === 0 ? 0.55 : 0.45)),
      })),
    };
  }
  if (exposed.media === true) {
    // Signed URLs on Gong's media storage (another host); a call recorded without video has no videoUrl.
    out.media = {
      audioUrl: media(c, 'audio'),
      ...(c.media === 'Video' ? { videoUrl: media(c, 'video') } : {}),
    };
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : 'invalid';
}
