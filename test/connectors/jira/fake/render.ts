// Records → Jira's wire shapes (User, UserDetails, Project, StatusDetails, Comment, Worklog, Attachment,
// IssueLink, IssueTransition). `self` links and attachment `content` URLs use the fake's own origin (the
// stand-in for https://{site}.atlassian.net). Issue beans: render-issue.ts.
import {
  type AttachmentRec,
  type CommentRec,
  type Dataset,
  ISSUE_TYPES,
  type IssueRec,
  LINK_TYPES,
  PRIORITIES,
  type ProjectRec,
  STATUS_CATEGORIES,
  STATUSES,
  TRANSITIONS,
  type UserRec,
  type WorklogRec,
} from './dataset.ts';
import { formatDuration, jiraTime, renderHtml } from './wire.ts';

export const ISSUE_EXPAND =
  'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations';

export class Renderer {
  constructor(
    readonly data: Dataset,
    /** the fake's origin, known once it listens */
    private readonly site: { origin: string },
  ) {}

  get origin(): string {
    return this.site.origin;
  }

  /** the API root, `${origin}/rest/api/3` */
  get base(): string {
    return `${this.site.origin}/rest/api/3`;
  }

  avatarUrls(seed: string): Record<string, string> {
    const initials = seed
      .replace(/[^A-Za-z ]/g, '')
      .split(' ')
      .map((w) => w[0] ?? '')
      .join('')
      .slice(0, 2);
    const url = `https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/initials/${initials || 'X'}-5.png`;
    return Object.fromEntries([16, 24, 32, 48].map((n) => [`${n}x${n}`, `${url}?size=${n}&s=${n}`]));
  }

  /** UserDetails, as users appear inside other records. */
  userRef(accountId: string | null): Record<string, unknown> | null {
    if (accountId === null) return null;
    const u = this.data.user(accountId);
    if (!u) return null;
    return {
      self: `${this.base}/user?accountId=${u.accountId}`,
      accountId: u.accountId,
      ...(u.email ? { emailAddress: u.email } : {}),
      avatarUrls: this.avatarUrls(u.displayName),
      displayName: u.displayName,
      active: u.active,
      timeZone: u.timeZone,
      accountType: u.accountType,
    };
  }

  /** User, as /user, /users/search, /user/search and /myself answer it. */
  user(u: UserRec): Record<string, unknown> {
    return {
      self: `${this.base}/user?accountId=${u.accountId}`,
      accountId: u.accountId,
      accountType: u.accountType,
      ...(u.email ? { emailAddress: u.email } : {}),
      avatarUrls: this.avatarUrls(u.displayName),
      displayName: u.displayName,
      active: u.active,
      timeZone: u.timeZone,
      locale: u.locale,
    };
  }

  userFull(u: UserRec, expand: Set<string>): Record<string, unknown> {
    const groups = u.accountType === 'atlassian' ? ['jira-software-users', 'site-admins'] : [];
    return {
      ...this.user(u),
      groups: {
        size: groups.length,
        items: expand.has('groups')
          ? groups.map((name) => ({ name, self: `${this.base}/group?groupname=${name}` }))
          : [],
      },
      applicationRoles: {
        size: 1,
        items: expand.has('applicationRoles') ? [{ key: 'jira-software', name: 'Jira Software' }] : [],
      },
      expand: 'groups,applicationRoles',
    };
  }

  projectRef(p: ProjectRec): Record<string, unknown> {
    return {
      self: `${this.base}/project/${p.id}`,
      id: p.id,
      key: p.key,
      name: p.name,
      projectTypeKey: p.projectTypeKey,
      simplified: false,
      avatarUrls: this.projectAvatars(p),
    };
  }

  projectAvatars(p: ProjectRec): Record<string, string> {
    const sizes = { '16x16': 'xsmall', '24x24': 'small', '32x32': 'medium', '48x48': 'large' };
    return Object.fromEntries(
      Object.entries(sizes).map(([k, size]) => [
        k,
        `${this.origin}/rest/api/3/universal_avatar/view/type/project/avatar/10400?size=${size}&pid=${p.id}`,
      ]),
    );
  }

  projectCategory(p: ProjectRec): Record<string, unknown> {
    const names: Record<string, string> = { '10000': 'Product', '10001': 'Internal' };
    return {
      self: `${this.base}/projectCategory/${p.categoryId}`,
      id: p.categoryId,
      name: names[p.categoryId] ?? 'Other',
      description: `${names[p.categoryId] ?? 'Other'} projects`,
    };
  }

  insight(p: ProjectRec): Record<string, unknown> {
    const issues = this.data.issues.filter((i) => i.projectId === p.id);
    const last = issues.reduce((max, i) => Math.max(max, i.updated), 0);
    return { totalIssueCount: issues.length, ...(last > 0 ? { lastIssueUpdateTime: jiraTime(last) } : {}) };
  }

  issueType(id: string): Record<string, unknown> {
    const t = ISSUE_TYPES.find((x) => x.id === id) ?? ISSUE_TYPES[0];
    return {
      self: `${this.base}/issuetype/${t.id}`,
      id: t.id,
      description: t.description,
      iconUrl: `${this.origin}/rest/api/2/universal_avatar/view/type/issuetype/avatar/${t.avatarId}?size=medium`,
      name: t.name,
      subtask: t.subtask,
      avatarId: t.avatarId,
      hierarchyLevel: t.hierarchyLevel,
    };
  }

  status(id: string): Record<string, unknown> {
    const s = STATUSES.find((x) => x.id === id) ?? STATUSES[0];
    const c = STATUS_CATEGORIES[s.category] as { key: string; colorName: string; name: string };
    return {
      self: `${this.base}/status/${s.id}`,
      description: s.description,
      iconUrl: `${this.origin}/`,
      name: s.name,
      id: s.id,
      statusCategory: {
        self: `${this.base}/statuscategory/${s.category}`,
        id: s.category,
        key: c.key,
        colorName: c.colorName,
        name: c.name,
      },
    };
  }

  priority(id: string): Record<string, unknown> {
    const p = PRIORITIES.find((x) => x.id === id) ?? PRIORITIES[2];
    return {
      self: `${this.base}/priority/${p.id}`,
      iconUrl: `${this.origin}/images/icons/priorities/${p.name.toLowerCase()}.svg`,
      name: p.name,
      id: p.id,
    };
  }

  /** The short form of an issue inside another (parent, subtasks, issue links). */
  issueRef(i: IssueRec): Record<string, unknown> {
    return {
      id: i.id,
      key: i.key,
      self: `${this.base}/issue/${i.id}`,
      fields: {
        summary: i.summary,
        status: this.status(i.statusId),
        priority: this.priority(i.priorityId),
        issuetype: this.issueType(i.issueTypeId),
      },
    };
  }

  comment(c: CommentRec, expand: Set<string> = new Set()): Record<string, unknown> {
    return {
      self: `${this.base}/issue/${c.issueId}/comment/${c.id}`,
      id: c.id,
      author: this.userRef(c.authorId),
      body: c.body,
      ...(expand.has('renderedBody') ? { renderedBody: renderHtml(c.body) } : {}),
      updateAuthor: this.userRef(c.updateAuthorId),
      created: jiraTime(c.created),
      updated: jiraTime(c.updated),
      ...(c.visibility ? { visibility: c.visibility } : {}),
      jsdPublic: true,
    };
  }

  worklog(w: WorklogRec, expand: Set<string> = new Set()): Record<string, unknown> {
    return {
      self: `${this.base}/issue/${w.issueId}/worklog/${w.id}`,
      author: this.userRef(w.authorId),
      updateAuthor: this.userRef(w.updateAuthorId),
      ...(w.comment ? { comment: w.comment } : {}),
      created: jiraTime(w.created),
      updated: jiraTime(w.updated),
      started: jiraTime(w.started),
      timeSpent: formatDuration(w.timeSpentSeconds),
      timeSpentSeconds: w.timeSpentSeconds,
      id: w.id,
      issueId: w.issueId,
      ...(expand.has('properties') ? { properties: [] } : {}),
    };
  }

  attachmentUrls(a: AttachmentRec): { self: string; content: string } {
    return { self: `${this.base}/attachment/${a.id}`, content: `${this.base}/attachment/content/${a.id}` };
  }

  /** Attachment as it appears in an issue's `fields.attachment` (id as a string). */
  attachment(a: AttachmentRec): Record<string, unknown> {
    const urls = this.attachmentUrls(a);
    return {
      self: urls.self,
      id: a.id,
      filename: a.filename,
      author: this.userRef(a.authorId),
      created: jiraTime(a.created),
      size: a.bytes.length,
      mimeType: a.mimeType,
      content: urls.content,
    };
  }

  /** AttachmentMetadata, as GET /attachment/{id} answers it (id as an integer, author as a User). */
  attachmentMetadata(a: AttachmentRec): Record<string, unknown> {
    const urls = this.attachmentUrls(a);
    const author = this.data.user(a.authorId);
    return {
      self: urls.self,
      id: Number(a.id),
      filename: a.filename,
      author: author ? this.user(author) : null,
      created: jiraTime(a.created),
      size: a.bytes.length,
      mimeType: a.mimeType,
      properties: {},
      content: urls.content,
    };
  }

  issueLinks(i: IssueRec): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const l of this.data.links) {
      const type = LINK_TYPES.find((t) => t.id === l.typeId) ?? LINK_TYPES[3];
      const typeBody = {
        id: type.id,
        name: type.name,
        inward: type.inward,
        outward: type.outward,
        self: `${this.base}/issueLinkType/${type.id}`,
      };
      const other =
        l.inwardIssueId === i.id ? l.outwardIssueId : l.outwardIssueId === i.id ? l.inwardIssueId : undefined;
      const rec = other === undefined ? undefined : this.data.issue(other);
      if (!rec) continue;
      out.push({
        id: l.id,
        self: `${this.base}/issueLink/${l.id}`,
        type: typeBody,
        ...(l.inwardIssueId === i.id
          ? { outwardIssue: this.issueRef(rec) }
          : { inwardIssue: this.issueRef(rec) }),
      });
    }
    return out;
  }

  transitions(i: IssueRec, transitionId?: string): Record<string, unknown>[] {
    return TRANSITIONS.filter(
      (t) => t.to !== i.statusId && (transitionId === undefined || t.id === transitionId),
    ).map((t) => ({
      id: t.id,
      name: t.name,
      to: this.status(t.to),
      hasScreen: false,
      isGlobal: true,
      isInitial: false,
      isAvailable: true,
      isConditional: false,
      isLooped: false,
    }));
  }
}
