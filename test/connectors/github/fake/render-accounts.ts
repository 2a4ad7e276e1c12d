// Expands account records (users, organizations) into GitHub's documented JSON. Return types come from the
// official OpenAPI description (via @octokit/rest's RestEndpointMethodTypes), so a missing required field or
// an undocumented extra one fails `tsc`. Field order follows the recorded responses in @octokit/fixtures.
import type { RestEndpointMethodTypes as Rest } from '@octokit/rest';
import type { Account, RepoRecord } from './dataset.ts';

type OrgSimple = Rest['orgs']['listForUser']['response']['data'][number];

type SimpleUser = Rest['repos']['get']['response']['data']['owner'];
type PublicUser = Rest['users']['getByUsername']['response']['data'];
type AuthenticatedUser = Rest['users']['getAuthenticated']['response']['data'];
type OrganizationFull = Rest['orgs']['get']['response']['data'];

export const WEB = 'https://github.com';

/** Everything a renderer needs: the fake's base URL (GitHub's https://api.github.com) and account lookup. */
export interface RenderContext {
  api: string;
  account(login: string): Account | undefined;
  /** Whether the caller is authenticated; GitHub only reports `permissions` to authenticated callers. */
  authenticated: boolean;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** GitHub's legacy global node id: base64("0" + typeName.length + ":" + typeName + id). */
export function nodeId(typeName: string, id: number): string {
  return Buffer.from(`0${typeName.length}:${typeName}${id}`).toString('base64');
}

export function simpleUser(ctx: RenderContext, account: Account): SimpleUser {
  const u = `${ctx.api}/users/${account.login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId(account.type, account.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${account.id}?v=4`,
    gravatar_id: '',
    url: u,
    html_url: `${WEB}/${account.login}`,
    followers_url: `${u}/followers`,
    following_url: `${u}/following{/other_user}`,
    gists_url: `${u}/gists{/gist_id}`,
    starred_url: `${u}/starred{/owner}{/repo}`,
    subscriptions_url: `${u}/subscriptions`,
    organizations_url: `${u}/orgs`,
    repos_url: `${u}/repos`,
    events_url: `${u}/events{/privacy}`,
    received_events_url: `${u}/received_events`,
    type: account.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

export function userByLogin(ctx: RenderContext, login: string): SimpleUser {
  const account = ctx.account(login);
  if (account === undefined) throw new Error(`dataset references unknown account ${login}`);
  return simpleUser(ctx, account);
}

function publicRepoCount(repos: RepoRecord[]): number {
  return repos.filter((repo) => !repo.private).length;
}

/** GET /users/{username} — "Get a user". Organizations are served here too, with type "Organization". */
export function publicUser(ctx: RenderContext, account: Account, repos: RepoRecord[]): PublicUser {
  return {
    ...simpleUser(ctx, account),
    name: account.name,
    company: account.company,
    blog: account.blog,
    location: account.location,
    email: account.email,
    hireable: null,
    bio: account.bio,
    twitter_username: null,
    public_repos: publicRepoCount(repos),
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: iso(account.createdAt),
    updated_at: iso(account.updatedAt),
  };
}

/** GET /user — "Get the authenticated user" (the private-user schema). */
export function authenticatedUser(
  ctx: RenderContext,
  account: Account,
  repos: RepoRecord[],
): AuthenticatedUser {
  const privateRepos = repos.length - publicRepoCount(repos);
  return {
    ...publicUser(ctx, account, repos),
    notification_email: null,
    private_gists: 0,
    total_private_repos: privateRepos,
    owned_private_repos: privateRepos,
    disk_usage: 1024,
    collaborators: 0,
    two_factor_authentication: true,
    plan: { name: 'pro', space: 976562499, collaborators: 0, private_repos: 9999 },
  };
}

/** "List organizations for a user" items (organization-simple). */
export function organizationSimple(ctx: RenderContext, org: Account): OrgSimple {
  const u = `${ctx.api}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: nodeId('Organization', org.id),
    url: u,
    repos_url: `${u}/repos`,
    events_url: `${u}/events`,
    hooks_url: `${u}/hooks`,
    issues_url: `${u}/issues`,
    members_url: `${u}/members{/member}`,
    public_members_url: `${u}/public_members{/member}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${org.id}?v=4`,
    description: org.bio,
  };
}

/** GET /orgs/{org} — "Get an organization". */
export function organization(ctx: RenderContext, org: Account, repos: RepoRecord[]): OrganizationFull {
  const privateRepos = repos.length - publicRepoCount(repos);
  return {
    ...organizationSimple(ctx, org),
    name: org.name,
    blog: org.blog,
    ...(org.location === null ? {} : { location: org.location }),
    twitter_username: null,
    is_verified: false,
    has_organization_projects: true,
    has_repository_projects: true,
    public_repos: publicRepoCount(repos),
    public_gists: 0,
    followers: 0,
    following: 0,
    html_url: `${WEB}/${org.login}`,
    created_at: iso(org.createdAt),
    updated_at: iso(org.updatedAt),
    archived_at: null,
    type: 'Organization',
    ...(ctx.authenticated ? { total_private_repos: privateRepos, owned_private_repos: privateRepos } : {}),
  };
}
