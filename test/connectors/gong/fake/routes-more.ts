// More Gong API v2 routes: settings, library, coaching and stats. Each names the help.gong.io reference page it
// follows (machine-readable: Gong's OpenAPI document, operationIds listScorecards, listTrackers,
// getLibraryStructure, getCallsInSpecificFolder, listUsers1 (coaching), listMultipleUsersAggregateActivity,
// listMultipleUsersDayByDayActivity, listInteractionStats, listAnsweredScorecards). The data is derived from
// the seeded dataset (its users, workspaces and calls), so the same options always answer the same.
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import type { CallRecord, Dataset, User } from './dataset.ts';
import { errorBody, MESSAGES, parseDateTime, requestId } from './wire.ts';

export const MORE_DOCS = {
  scorecards: 'https://help.gong.io/apidocs/retrieve-scorecards-details-v2settingsscorecards',
  trackers: 'https://help.gong.io/apidocs/retrieve-tracker-details-v2settingstrackers-1',
  folders: 'https://help.gong.io/apidocs/library-1 (Retrieve Library folders, /v2/library/folders)',
  folderContent: 'https://help.gong.io/apidocs/list-of-calls-in-a-specific-folder-v2libraryfolder-content-2',
  coaching: 'https://help.gong.io/apidocs/list-all-coaching-metrics-v2coaching-1',
  aggregate:
    'https://help.gong.io/apidocs/retrieve-aggregated-activity-for-defined-users-by-date-v2statsactivityaggregate',
  dayByDay:
    'https://help.gong.io/apidocs/retrieve-daily-activity-for-applicable-users-for-a-date-range-v2statsactivityday-by-day',
  interaction:
    'https://help.gong.io/apidocs/retrieve-interaction-stats-for-applicable-users-by-date-v2statsinteraction',
  answered:
    'https://help.gong.io/apidocs/retrieve-answered-scorecards-for-applicable-reviewed-users-or-scorecards-for-a-date-range-v2statsactivityscorecards',
} as const;

/** One page of a list: `records` and the items, or an error answer. */
export type Pager = <T>(
  all: readonly T[],
  route: string,
  body: Record<string, unknown>,
) => { records: Record<string, unknown>; items: T[] } | Answer;

const malformed = (detail: string): Answer => ({
  status: 400,
  body: errorBody(`${MESSAGES.malformed}: ${detail}`),
});
const ok = (body: Record<string, unknown>): Answer => ({
  status: 200,
  body: { requestId: requestId(), ...body },
});
const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Reference data the routes serve, built once per fake from the dataset. */
class Settings {
  readonly scorecards;
  readonly trackers;
  readonly folders;
  readonly folderCalls = new Map<string, CallRecord[]>();
  readonly answered;

  constructor(private readonly data: Dataset) {
    const people = data.users.filter((u) => !u.avatar);
    const ws = data.workspaces;
    const names = ['SDR Call Scorecard', 'Discovery Call Review', 'Demo Excellence'];
    // int64 ids as JSON numbers (the reference's type); these stay within a double's exact range.
    this.scorecards = names.map((name, i) => ({
      scorecardId: 6843152929075440 + i,
      scorecardName: name,
      workspaceId: Number(ws[i % ws.length]?.id),
      enabled: i !== 2,
      updaterUserId: Number(people[i]?.id),
      created: iso(Date.parse('2023-03-01T10:00:00Z') + i * 7 * DAY_MS),
      updated: iso(Date.parse('2023-09-01T10:00:00Z') + i * 7 * DAY_MS),
      questions: ['Did the rep confirm the budget?', 'Rate the discovery', 'Next steps agreed?'].map(
        (text, q) => ({
          questionId: 7843152929075440 + i * 10 + q,
          questionRevisionId: 8843152929075440 + i * 10 + q,
          questionText: text,
          isOverall: q === 1,
          updaterUserId: Number(people[i]?.id),
          created: iso(Date.parse('2023-03-01T10:00:00Z') + i * 7 * DAY_MS),
          updated: iso(Date.parse('2023-09-01T10:00:00Z') + i * 7 * DAY_MS),
        }),
      ),
    }));
    const trackerNames = ['Competitors', 'Pricing', 'Security', 'Next Steps'];
    this.trackers = trackerNames.map((name, i) => ({
      trackerId: String(6840000929075400007n + BigInt(i)),
      trackerName: name,
      workspaceId: ws[i % ws.length]?.id ?? null,
      languageKeywords: [
        {
          language: 'eng',
          keywords: [name.toLowerCase(), `${name.toLowerCase()} review`],
          includeRelatedForms: true,
        },
      ],
      affiliation: i % 2 === 0 ? 'Anyone' : 'NonCompany',
      partOfQuestion: i === 3,
      saidAt: i === 3 ? 'Last' : 'Anytime',
      saidAtInterval: i === 3 ? 5 : null,
      saidAtUnit: i === 3 ? 'Minutes' : null,
      saidInTopics: [],
      saidInCallParts: [],
      filterQuery: '',
      created: iso(Date.parse('2022-05-01T09:00:00Z') + i * DAY_MS),
      creatorUserId: people[i]?.id ?? null,
      updated: iso(Date.parse('2022-06-01T09:00:00Z') + i * DAY_MS),
      updaterUserId: people[i]?.id ?? null,
    }));
    // Per workspace: a root folder and a child folder; each folder holds every 7th call of its workspace.
    this.folders = ws.flatMap((w, i) => {
      const root = String(3843152912968920000n + BigInt(i * 2));
      const child = String(3843152912968920001n + BigInt(i * 2));
      return [
        {
          workspaceId: w.id,
          id: root,
          name: `${w.name} Best Calls`,
          parentFolderId: null,
          createdBy: people[i]?.id ?? null,
          updated: iso(Date.parse('2023-02-01T12:00:00Z') + i * DAY_MS),
        },
        {
          workspaceId: w.id,
          id: child,
          name: `${w.name} Onboarding`,
          parentFolderId: root,
          createdBy: people[i + 1]?.id ?? null,
          updated: iso(Date.parse('2023-02-02T12:00:00Z') + i * DAY_MS),
        },
      ];
    });
    for (const [f, folder] of this.folders.entries()) {
      const inWorkspace = data.calls.filter((c) => c.workspaceId === folder.workspaceId);
      this.folderCalls.set(
        folder.id,
        inWorkspace.filter((_c, n) => n % 7 === f % 2),
      );
    }
    // Every third call has an answered scorecard, reviewed by a manager the day after the call.
    this.answered = data.calls
      .filter((_c, n) => n % 3 === 0)
      .map((c, k) => {
        const card = this.scorecards[k % this.scorecards.length] as (typeof this.scorecards)[number];
        const reviewer = people[k % 4] as User;
        return {
          answeredScorecardId: 4043152929075000 + k,
          scorecardId: card.scorecardId,
          scorecardName: card.scorecardName,
          callId: BigInt(c.id),
          callStartTime: c.started,
          reviewedUserId: Number(c.primaryUserId),
          reviewerUserId: Number(reviewer.id),
          reviewTime: iso(Date.parse(c.started) + DAY_MS),
          visibilityType: k % 2 === 0 ? 'PUBLIC' : 'PRIVATE',
          answers: card.questions.map((q, j) => ({
            questionId: q.questionId,
            questionRevisionId: q.questionRevisionId,
            isOverall: q.isOverall,
            score: 1 + ((k + j) % 5),
            answerText: j === 2 ? 'Follow-up booked' : null,
            notApplicable: false,
          })),
        };
      });
  }

  /** A user as the coaching endpoint's CoachingUser. */
  coachingUser(u: User) {
    return {
      id: u.id,
      emailAddress: u.emailAddress,
      firstName: u.firstName,
      lastName: u.lastName,
      title: u.title,
    };
  }

  reportsOf(managerId: string): User[] {
    return this.data.users.filter((u) => u.managerId === managerId);
  }
}

export function createMoreRoutes(data: Dataset, page: Pager, today: () => string) {
  const s = new Settings(data);
  const people = () => data.users.filter((u) => !u.avatar);

  /** The MultipleUsersWithDates filter of the activity and interaction stats. */
  const statsWindow = (
    req: RouteRequest,
  ): { body: Record<string, unknown>; from: number; to: number; users: User[] } | Answer => {
    if (req.json === undefined || req.json === 'invalid') return malformed('the body must be a JSON object');
    const filter = req.json.filter;
    if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
      return malformed('filter is required');
    const f = filter as Record<string, unknown>;
    if (
      typeof f.fromDate !== 'string' ||
      !DATE.test(f.fromDate) ||
      typeof f.toDate !== 'string' ||
      !DATE.test(f.toDate)
    )
      return malformed('filter.fromDate and filter.toDate are required (YYYY-MM-DD)');
    // "This value should not exceed the current day."
    if (f.toDate > today()) return malformed('filter.toDate must not be after the current day');
    for (const key of ['createdFromDateTime', 'createdToDateTime'])
      if (parseDateTime(f[key]) === 'invalid')
        return malformed(`filter.${key} must be an ISO-8601 date-time`);
    const ids = f.userIds;
    if (ids !== undefined && ids !== null && !(Array.isArray(ids) && ids.every((v) => typeof v === 'string')))
      return malformed('filter.userIds must be an array of strings');
    const users = people().filter((u) => !Array.isArray(ids) || ids.includes(u.id));
    return {
      body: req.json,
      from: Date.parse(`${f.fromDate}T00:00:00Z`),
      to: Date.parse(`${f.toDate}T00:00:00Z`),
      users,
    };
  };
  const hosted = (u: User, from: number, to: number) =>
    data.calls.filter(
      (c) => c.primaryUserId === u.id && Date.parse(c.started) >= from && Date.parse(c.started) < to,
    );
  const attended = (u: User, from: number, to: number) =>
    data.calls.filter(
      (c) =>
        c.primaryUserId !== u.id &&
        c.parties.some((p) => p.userId === u.id) &&
        Date.parse(c.started) >= from &&
        Date.parse(c.started) < to,
    );
  /** "Records are returned only for users with activity in the range." */
  const active = (w: { users: User[]; from: number; to: number }) =>
    w.users.filter((u) => hosted(u, w.from, w.to).length + attended(u, w.from, w.to).length > 0);
  const counts = (calls: CallRecord[], own: CallRecord[]) => ({
    callsAsHost: calls,
    callsGaveFeedback: calls.filter((_c, i) => i % 5 === 1),
    callsRequestedFeedback: calls.filter((_c, i) => i % 7 === 2),
    callsReceivedFeedback: calls.filter((_c, i) => i % 5 === 3),
    ownCallsListenedTo: calls.filter((_c, i) => i % 2 === 0),
    othersCallsListenedTo: own,
    callsSharedInternally: calls.filter((_c, i) => i % 4 === 0),
    callsSharedExternally: calls.filter((_c, i) => i % 6 === 0),
    callsScorecardsFilled: own.filter((_c, i) => i % 3 === 0),
    callsScorecardsReceived: calls.filter((_c, i) => i % 3 === 0),
    callsAttended: own,
    callsCommentsGiven: own.filter((_c, i) => i % 2 === 1),
    callsCommentsReceived: calls.filter((_c, i) => i % 4 === 1),
    callsMarkedAsFeedbackGiven: own.filter((_c, i) => i % 4 === 2),
    callsMarkedAsFeedbackReceived: calls.filter((_c, i) => i % 8 === 3),
  });
  const window = (w: { from: number; to: number }) => ({
    timeZone: 'UTC',
    fromDateTime: iso(w.from),
    toDateTime: iso(w.to),
  });

  const routes: Route[] = [
    // "Retrieve scorecards details (/v2/settings/scorecards)": answers {requestId, scorecards}.
    {
      method: 'GET',
      path: '/v2/settings/scorecards',
      operation: 'listScorecards',
      handle: (req) => {
        const ws = req.query.get('workspaceId');
        return ok({ scorecards: s.scorecards.filter((c) => ws === null || String(c.workspaceId) === ws) });
      },
    },
    // "Retrieve tracker details (/v2/settings/trackers)": workspaceId ("when empty, all trackers in all
    // workspaces are returned"); answers {requestId, keywordTrackers}.
    {
      method: 'GET',
      path: '/v2/settings/trackers',
      operation: 'listTrackers',
      handle: (req) => {
        const ws = req.query.get('workspaceId');
        return ok({ keywordTrackers: s.trackers.filter((t) => !ws || t.workspaceId === ws) });
      },
    },
    // "Retrieve Library folders (/v2/library/folders)": workspaceId; public folders only; answers
    // {requestId, folders: [{id, name, parentFolderId, createdBy, updated}]}.
    {
      method: 'GET',
      path: '/v2/library/folders',
      operation: 'getLibraryStructure',
      handle: (req) => {
        const ws = req.query.get('workspaceId') ?? data.workspaces[0]?.id;
        if (!data.workspaces.some((w) => w.id === ws))
          return malformed('workspaceId is not a workspace of the company');
        return ok({
          folders: s.folders.filter((f) => f.workspaceId === ws).map(({ workspaceId: _w, ...f }) => f),
        });
      },
    },
    // "List of calls in a specific folder (/v2/library/folder-content)": folderId; answers {requestId, id, name,
    // createdBy, updated, calls: [{id, title, note, addedBy, created, url, snippet: {fromSec, toSec}}]}.
    {
      method: 'GET',
      path: '/v2/library/folder-content',
      operation: 'getCallsInSpecificFolder',
      handle: (req) => {
        const folder = s.folders.find((f) => f.id === req.query.get('folderId'));
        if (folder === undefined) return { status: 404, body: errorBody(MESSAGES.notFound) };
        const calls = s.folderCalls.get(folder.id) ?? [];
        return ok({
          id: folder.id,
          name: folder.name,
          createdBy: folder.createdBy,
          updated: folder.updated,
          calls: calls.map((c, i) => ({
            id: c.id,
            title: c.title,
            note: i % 2 === 0 ? `Good example of ${c.topics[0]?.name.toLowerCase() ?? 'a call'}` : null,
            addedBy: folder.createdBy,
            created: iso(Date.parse(c.started) + 2 * DAY_MS),
            url: c.url,
            ...(i % 3 === 0 ? { snippet: { fromSec: 60 * (i + 1), toSec: 60 * (i + 2) } } : {}),
          })),
        });
      },
    },
    // "List all coaching metrics (/v2/coaching)": workspace-id, manager-id, from, to (all required); answers
    // {requestId, coachingData: [{manager, directReportsMetrics: [{report, metrics: {name: [values]}}]}]}.
    {
      method: 'GET',
      path: '/v2/coaching',
      operation: 'listUsers1',
      handle: (req) => {
        const q = (name: string) => req.query.get(name);
        if (!q('workspace-id') || !q('manager-id') || !q('from') || !q('to'))
          return malformed('workspace-id, manager-id, from and to are required');
        const from = parseDateTime(q('from'));
        const to = parseDateTime(q('to'));
        if (from === 'invalid' || to === 'invalid')
          return malformed('from and to must be ISO-8601 date-times');
        if (!data.workspaces.some((w) => w.id === q('workspace-id')))
          return malformed('workspace-id is not a workspace of the company');
        const manager = data.userById(q('manager-id') ?? '');
        if (manager === undefined) return malformed('manager-id is not a user of the company');
        const span = [from ?? 0, to ?? Number.MAX_SAFE_INTEGER] as const;
        return ok({
          coachingData: [
            {
              manager: s.coachingUser(manager),
              directReportsMetrics: s.reportsOf(manager.id).map((report) => {
                const calls = hosted(report, span[0], span[1]);
                return {
                  report: s.coachingUser(report),
                  metrics: {
                    callsListened: [String(calls.filter((_c, i) => i % 2 === 0).length)],
                    callsAttended: [
                      String(
                        attended(manager, span[0], span[1]).filter((c) => c.primaryUserId === report.id)
                          .length,
                      ),
                    ],
                    callsWithFeedback: [String(calls.filter((_c, i) => i % 5 === 1).length)],
                    callsWithComments: [String(calls.filter((_c, i) => i % 4 === 1).length)],
                    scorecardsFilled: [String(calls.filter((_c, i) => i % 3 === 0).length)],
                  },
                };
              }),
            },
          ],
        });
      },
    },
    // "Retrieve aggregated activity for defined users by date (/v2/stats/activity/aggregate)": body {cursor?,
    // filter: {fromDate, toDate (exclusive, not after today), createdFromDateTime?, createdToDateTime?,
    // userIds?}}; answers {requestId, records, timeZone, fromDateTime, toDateTime, usersAggregateActivityStats:
    // [{userId, userEmailAddress, userAggregateActivityStats: {callsAsHost, ...}}]}.
    {
      method: 'POST',
      path: '/v2/stats/activity/aggregate',
      operation: 'listMultipleUsersAggregateActivity',
      handle: (req) => {
        const w = statsWindow(req);
        if ('status' in w) return w;
        const p = page(active(w), 'stats/activity/aggregate', w.body);
        if ('status' in p) return p;
        return ok({
          records: p.records,
          ...window(w),
          usersAggregateActivityStats: p.items.map((u) => ({
            userId: u.id,
            userEmailAddress: u.emailAddress,
            userAggregateActivityStats: Object.fromEntries(
              Object.entries(counts(hosted(u, w.from, w.to), attended(u, w.from, w.to))).map(([k, v]) => [
                k,
                v.length,
              ]),
            ),
          })),
        });
      },
    },
    // "Retrieve daily activity for applicable users for a date range (/v2/stats/activity/day-by-day)": the
    // same filter; answers {requestId, records, usersDetailedActivities: [{userId, userEmailAddress,
    // userDailyActivityStats: [{callsAsHost: [call ids], ..., fromDate, toDate}]}]}, one item per day.
    {
      method: 'POST',
      path: '/v2/stats/activity/day-by-day',
      operation: 'listMultipleUsersDayByDayActivity',
      handle: (req) => {
        const w = statsWindow(req);
        if ('status' in w) return w;
        const p = page(active(w), 'stats/activity/day-by-day', w.body);
        if ('status' in p) return p;
        return ok({
          records: p.records,
          usersDetailedActivities: p.items.map((u) => {
            const days = [];
            for (let at = w.from; at < w.to; at += DAY_MS) {
              const day = counts(hosted(u, at, at + DAY_MS), attended(u, at, at + DAY_MS));
              days.push({
                ...Object.fromEntries(Object.entries(day).map(([k, v]) => [k, v.map((c) => c.id)])),
                fromDate: iso(at),
                toDate: iso(at + DAY_MS),
              });
            }
            return { userId: u.id, userEmailAddress: u.emailAddress, userDailyActivityStats: days };
          }),
        });
      },
    },
    // "Retrieve interaction stats for applicable users by date (/v2/stats/interaction)": the same filter;
    // answers {requestId, records, timeZone, fromDateTime, toDateTime, peopleInteractionStats: [{userId,
    // userEmailAddress, personInteractionStats: [{name, value}]}]}.
    {
      method: 'POST',
      path: '/v2/stats/interaction',
      operation: 'listInteractionStats',
      handle: (req) => {
        const w = statsWindow(req);
        if ('status' in w) return w;
        const withCalls = w.users.filter((u) => hosted(u, w.from, w.to).length > 0);
        const p = page(withCalls, 'stats/interaction', w.body);
        if ('status' in p) return p;
        return ok({
          records: p.records,
          ...window(w),
          peopleInteractionStats: p.items.map((u) => {
            const calls = hosted(u, w.from, w.to);
            const seed = calls.reduce((sum, c) => sum + c.duration, 0);
            return {
              userId: u.id,
              userEmailAddress: u.emailAddress,
              personInteractionStats: [
                { name: 'Talk Ratio', value: 0.4 + (seed % 30) / 100 },
                { name: 'Longest Monologue', value: 60 + (seed % 240) },
                { name: 'Interactivity', value: 4 + (seed % 60) / 10 },
                { name: 'Patience', value: 0.5 + (seed % 20) / 10 },
                { name: 'Question Rate', value: 5 + (seed % 150) / 10 },
              ],
            };
          }),
        });
      },
    },
    // "Retrieve answered scorecards ... (/v2/stats/activity/scorecards)": body {cursor?, filter (required):
    // {callFromDate, callToDate, reviewFromDate, reviewToDate, scorecardIds, reviewedUserIds}}; answers
    // {requestId, records, answeredScorecards: [...]}.
    {
      method: 'POST',
      path: '/v2/stats/activity/scorecards',
      operation: 'listAnsweredScorecards',
      handle: (req) => {
        if (req.json === undefined || req.json === 'invalid')
          return malformed('the body must be a JSON object');
        const filter = req.json.filter;
        if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
          return malformed('filter is required');
        const f = filter as Record<string, unknown>;
        const day = (key: string): number | undefined | Answer => {
          const v = f[key];
          if (v === undefined || v === null) return undefined;
          return typeof v === 'string' && DATE.test(v)
            ? Date.parse(`${v}T00:00:00Z`)
            : malformed(`filter.${key} must be YYYY-MM-DD`);
        };
        const bounds = ['callFromDate', 'callToDate', 'reviewFromDate', 'reviewToDate'].map(day);
        const bad = bounds.find((b): b is Answer => typeof b === 'object');
        if (bad) return bad;
        const [callFrom, callTo, reviewFrom, reviewTo] = bounds as Array<number | undefined>;
        const list = (key: string) => (Array.isArray(f[key]) ? (f[key] as unknown[]).map(String) : undefined);
        const cards = list('scorecardIds');
        const reviewed = list('reviewedUserIds');
        const within = (at: number, from?: number, to?: number) =>
          (from === undefined || at >= from) && (to === undefined || at < to);
        const matching = s.answered.filter(
          (a) =>
            within(Date.parse(a.callStartTime), callFrom, callTo) &&
            within(Date.parse(a.reviewTime), reviewFrom, reviewTo) &&
            (cards === undefined || cards.includes(String(a.scorecardId))) &&
            (reviewed === undefined || reviewed.includes(String(a.reviewedUserId))),
        );
        const p = page(matching, 'stats/activity/scorecards', req.json);
        if ('status' in p) return p;
        return ok({ records: p.records, answeredScorecards: p.items });
      },
    },
  ];

  return routes;
}
