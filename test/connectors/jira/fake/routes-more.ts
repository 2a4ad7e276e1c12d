// Fields, projects, users, myself and attachments. Each route names the reference operation (operationId) it
// follows. Paths are below /rest/api/3.

import { serveBytes } from '../../atlassian-media.ts';
import type { Route } from '../../kit/index.ts';
import { route } from '../../kit/route.ts';
import { ISSUE_TYPES, type ProjectRec } from './dataset.ts';
import { fieldDetails, fieldSearchItem } from './fields.ts';
import { boolParam, expandOf, fail, listParam, offsetWindow, ok, type Result } from './wire.ts';
import type { Ctx } from './writes.ts';

export function moreRoutes(ctx: Ctx): Route<unknown>[] {
  const { data, render } = ctx;
  const projectFull = (p: ProjectRec, expand: Set<string>) => {
    const lead = data.user(p.leadAccountId);
    return {
      expand: 'description,lead,issueTypes,url,projectKeys,permissions,insight',
      self: `${render.base}/project/${p.id}`,
      id: p.id,
      key: p.key,
      description: p.description,
      lead: lead ? render.user(lead) : null,
      components: [],
      issueTypes: ISSUE_TYPES.map((t) => render.issueType(t.id)),
      assigneeType: 'UNASSIGNED',
      versions: [],
      name: p.name,
      roles: { Administrators: `${render.base}/project/${p.id}/role/10002` },
      avatarUrls: render.projectAvatars(p),
      projectCategory: render.projectCategory(p),
      projectTypeKey: p.projectTypeKey,
      simplified: false,
      style: 'classic',
      isPrivate: false,
      properties: {},
      ...(expand.has('projectKeys') ? { projectKeys: [p.key] } : {}),
      ...(expand.has('insight') ? { insight: render.insight(p) } : {}),
    };
  };

  const projectSummary = (p: ProjectRec, expand: Set<string>) => {
    const lead = data.user(p.leadAccountId);
    return {
      expand: 'description,lead,issueTypes,url,projectKeys,permissions,insight',
      self: `${render.base}/project/${p.id}`,
      id: p.id,
      key: p.key,
      ...(expand.has('description') ? { description: p.description } : {}),
      ...(expand.has('lead') && lead ? { lead: render.user(lead) } : {}),
      ...(expand.has('issueTypes') ? { issueTypes: ISSUE_TYPES.map((t) => render.issueType(t.id)) } : {}),
      name: p.name,
      avatarUrls: render.projectAvatars(p),
      projectCategory: render.projectCategory(p),
      projectTypeKey: p.projectTypeKey,
      simplified: false,
      style: 'classic',
      isPrivate: false,
      properties: {},
      entityId: p.uuid,
      uuid: p.uuid,
      ...(expand.has('projectKeys') ? { projectKeys: [p.key] } : {}),
      ...(expand.has('insight') ? { insight: render.insight(p) } : {}),
    };
  };

  /** A plain-array page (users/search, user/search): startAt/maxResults in, a bare array out. */
  const arrayPage = <T>(all: T[], query: URLSearchParams): Result | T[] => {
    const w = offsetWindow(query, { maxResults: 50, max: 1000 });
    if ('status' in w) return w;
    return all.slice(w.startAt, w.startAt + w.maxResults);
  };

  return [
    // getCurrentUser: GET /myself?expand=groups,applicationRoles
    route('GET', '/myself', 'getCurrentUser', (req) =>
      ok(render.userFull(ctx.me(), expandOf(req.query.get('expand')))),
    ),

    // getFields: GET /field → FieldDetails[] (every field, one unpaged array)
    route('GET', '/field', 'getFields', () => ok(data.fields.map(fieldDetails))),
    // getFieldsPaginated: GET /field/search?startAt&maxResults(50)&type&id&query&orderBy&expand → PageBeanField
    route('GET', '/field/search', 'getFieldsPaginated', (req) => {
      const w = offsetWindow(req.query, { maxResults: 50, max: 100 });
      if ('status' in w) return w;
      const types = listParam(req.query, 'type');
      if (types.some((t) => t !== 'custom' && t !== 'system'))
        return fail(400, `Invalid type: '${types.join(',')}'.`);
      const ids = listParam(req.query, 'id');
      if (ids.some((id) => !id.startsWith('customfield_')))
        return fail(400, 'Only custom fields can be queried.');
      const q = (req.query.get('query') ?? '').toLowerCase();
      let list = data.fields.filter(
        (f) =>
          (types.length === 0 || types.includes(f.custom ? 'custom' : 'system')) &&
          (ids.length === 0 || ids.includes(f.id)) &&
          (q === '' || f.name.toLowerCase().includes(q) || (f.description ?? '').toLowerCase().includes(q)),
      );
      const orderBy = req.query.get('orderBy');
      if (orderBy !== null) {
        const m = /^([+-]?)(contextsCount|lastUsed|name|screensCount|projectsCount)$/.exec(orderBy);
        if (!m) return fail(400, `Invalid orderBy value '${orderBy}'.`);
        const key = m[2] as string;
        const val = (f: (typeof list)[number]): string | number =>
          key === 'name'
            ? f.name.toLowerCase()
            : key === 'lastUsed'
              ? (f.lastUsed ?? '')
              : key === 'screensCount'
                ? f.screensCount
                : f.contextsCount;
        list = [...list].sort((a, b) => {
          const x = val(a);
          const y = val(b);
          const c = x < y ? -1 : x > y ? 1 : 0;
          return m[1] === '-' ? -c : c;
        });
      }
      const expand = expandOf(req.query.get('expand'));
      const values = list.slice(w.startAt, w.startAt + w.maxResults).map((f) => fieldSearchItem(f, expand));
      return ok({
        maxResults: w.maxResults,
        startAt: w.startAt,
        total: list.length,
        isLast: w.startAt + values.length >= list.length,
        values,
      });
    }),

    // searchProjects: GET /project/search?startAt&maxResults(50, ≤100)&orderBy&id&keys&query&typeKey&categoryId&expand
    route('GET', '/project/search', 'searchProjects', (req) => {
      const w = offsetWindow(req.query, { maxResults: 50, max: 100 });
      if ('status' in w) return w;
      const ids = listParam(req.query, 'id');
      const keys = listParam(req.query, 'keys');
      const types = listParam(req.query, 'typeKey');
      const categoryId = req.query.get('categoryId');
      const q = (req.query.get('query') ?? '').toLowerCase();
      const statuses = listParam(req.query, 'status');
      let list = data.projects.filter(
        (p) =>
          (ids.length === 0 || ids.includes(p.id)) &&
          (keys.length === 0 || keys.includes(p.key)) &&
          (types.length === 0 || types.includes(p.projectTypeKey)) &&
          (categoryId === null || categoryId === p.categoryId) &&
          (statuses.length === 0 || statuses.includes('live')) &&
          (q === '' || p.key.toLowerCase().includes(q) || p.name.toLowerCase().includes(q)),
      );
      const orderBy = req.query.get('orderBy') ?? 'key';
      const m =
        /^([+-]?)(category|key|name|owner|issueCount|lastIssueUpdatedDate|lastIssueUpdatedTime|archivedDate|deletedDate)$/.exec(
          orderBy,
        );
      if (!m) return fail(400, `Invalid orderBy value '${orderBy}'.`);
      const insight = (p: ProjectRec) =>
        render.insight(p) as { totalIssueCount: number; lastIssueUpdateTime?: string };
      const val = (p: ProjectRec): string | number => {
        switch (m[2]) {
          case 'name':
            return p.name.toLowerCase();
          case 'category':
            return p.categoryId;
          case 'owner':
            return data.user(p.leadAccountId)?.displayName ?? '';
          case 'issueCount':
            return insight(p).totalIssueCount;
          case 'lastIssueUpdatedDate':
          case 'lastIssueUpdatedTime':
            return insight(p).lastIssueUpdateTime ?? '';
          default:
            return p.key;
        }
      };
      list = [...list].sort((a, b) => {
        const x = val(a);
        const y = val(b);
        const c = x < y ? -1 : x > y ? 1 : 0;
        return m[1] === '-' ? -c : c;
      });
      const expand = expandOf(req.query.get('expand'));
      const values = list.slice(w.startAt, w.startAt + w.maxResults).map((p) => projectSummary(p, expand));
      const pageUrl = (startAt: number) => {
        const q2 = new URLSearchParams(req.query);
        q2.set('startAt', String(startAt));
        q2.set('maxResults', String(w.maxResults));
        return `${render.base}/project/search?${q2}`;
      };
      const isLast = w.startAt + values.length >= list.length;
      return ok({
        self: pageUrl(w.startAt),
        ...(isLast ? {} : { nextPage: pageUrl(w.startAt + w.maxResults) }),
        maxResults: w.maxResults,
        startAt: w.startAt,
        total: list.length,
        isLast,
        values,
      });
    }),
    // getProject: GET /project/{projectIdOrKey}?expand&properties (key case-sensitive)
    route('GET', '/project/{projectIdOrKey}', 'getProject', (req) => {
      const idOrKey = req.params.projectIdOrKey ?? '';
      const p = data.project(idOrKey);
      if (!p)
        return fail(
          404,
          `No project could be found with ${/^\d+$/.test(idOrKey) ? 'id' : 'key'} '${idOrKey}'.`,
        );
      return ok(projectFull(p, expandOf(req.query.get('expand'))));
    }),

    // getAllUsers: GET /users/search?startAt&maxResults(50, ≤1000) → User[] (active, inactive and app accounts)
    route('GET', '/users/search', 'getAllUsers', (req) => {
      const page = arrayPage(data.users, req.query);
      return Array.isArray(page) ? ok(page.map((u) => render.user(u))) : page;
    }),
    // getUser: GET /user?accountId&expand=groups,applicationRoles
    route('GET', '/user', 'getUser', (req) => {
      const accountId = req.query.get('accountId');
      if (!accountId) return fail(400, "The 'accountId' query parameter needs to be provided.");
      const user = data.user(accountId);
      if (!user) return fail(404, `Specified user does not exist or you do not have required permissions`);
      return ok(render.userFull(user, expandOf(req.query.get('expand'))));
    }),
    // findUsers: GET /user/search?query|accountId|property&startAt&maxResults(50) → active users, a bare array
    route('GET', '/user/search', 'findUsers', (req) => {
      const query = req.query.get('query');
      const accountId = req.query.get('accountId');
      const property = req.query.get('property');
      if (!query && !accountId && !property)
        return fail(400, "One of 'accountId', 'query' or 'property' must be provided.");
      if (query && accountId) return fail(400, "'query' and 'accountId' cannot be provided together.");
      if (property) return fail(400, `The property query '${property}' is not valid.`);
      const q = (query ?? '').toLowerCase();
      const matches = data.users.filter(
        (u) =>
          u.active &&
          u.accountType === 'atlassian' &&
          (accountId ? u.accountId === accountId : true) &&
          (q === '' ||
            u.displayName
              .toLowerCase()
              .split(/\s+/)
              .some((w) => w.startsWith(q)) ||
            u.displayName.toLowerCase().startsWith(q) ||
            u.email.toLowerCase().startsWith(q)),
      );
      const page = arrayPage(matches, req.query);
      return Array.isArray(page) ? ok(page.map((u) => render.user(u))) : page;
    }),

    // getAttachmentContent: GET /attachment/content/{id}?redirect(true) → 303 to Media, or the bytes (200/206)
    route('GET', '/attachment/content/{id}', 'getAttachmentContent', (req) => {
      const a = data.attachments.find((x) => x.id === req.params.id);
      if (!a) return fail(404, `The attachment with id '${req.params.id}' does not exist.`);
      if (boolParam(req.query, 'redirect', true))
        return { status: 303, headers: { location: ctx.mediaUrl(a) }, body: undefined };
      const range = req.recorded.headers.range;
      return serveBytes(a.bytes, a.mimeType, typeof range === 'string' ? range : undefined);
    }),
    // getAttachment: GET /attachment/{id} → AttachmentMetadata (with the `content` URL)
    route('GET', '/attachment/{id}', 'getAttachment', (req) => {
      const a = data.attachments.find((x) => x.id === req.params.id);
      return a
        ? ok(render.attachmentMetadata(a))
        : fail(404, `The attachment with id '${req.params.id}' does not exist.`);
    }),
  ];
}
