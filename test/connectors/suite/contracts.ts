// Each provider fake's contract (kit/contract.ts), run by the definition-driven suite over every exchange the
// suite's cases made: the facts it is held to, and the requests that are not the described API, with reasons.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type GraphQLSchema, parse, validate } from 'graphql';
import {
  type ContractOptions,
  type ContractResult,
  checkContract,
  type OperationFacts,
} from '../kit/contract.ts';
import type { RecordedRequest } from '../kit/server.ts';
import { linearSchema } from '../linear/fake/graphql.ts';

const REFERENCE = new URL('../../reference/providers/', import.meta.url);

type Contract =
  /** the provider's OpenAPI description, reduced by `npm run reference:facts` */
  | ({ kind: 'openapi' } & ContractOptions)
  /** each recorded query validates against the provider's SDL */
  | { kind: 'graphql'; endpoint: string; schema: () => GraphQLSchema }
  /** no machine-readable description: the operations written by hand from the pages each one names */
  | ({ kind: 'pages' } & ContractOptions);

const TOKEN_ENDPOINT = 'the OAuth token endpoint, not a route of the API reference (its own tests cover it)';
const DOWNLOAD_HOST = 'a download host the API answers with (a signed URL), not a route of the described API';

export const CONTRACTS: Record<string, Contract> = {
  asana: {
    kind: 'openapi',
    // Asana answers null for an unset relation its description types as an object without marking it nullable
    // (a task's `assignee` and `parent`, a list's `next_page` on its last page: developers.asana.com/docs/pagination).
    nullsUnmarked: true,
    exempt: [{ route: /^POST \/-\/oauth_token$/, reason: TOKEN_ENDPOINT }],
    gaps: [
      {
        violation:
          /\(as GET \/api\/1\.0\/workspaces\/\{workspace_gid\}\/tasks\/search\): query parameter limit is not declared/,
        reason:
          "Asana's reference (Search tasks in a workspace, Pagination) says page sizes are set by the `limit` query " +
          'parameter, at most 100; the published description does not list it',
      },
    ],
  },
  github: {
    kind: 'openapi',
    multiSegmentParams: ['ref', 'path'],
    // GitHub's Link headers name the next page by numeric id (/repositories/{id}/issues?page=2), as the recorded
    // real answers of @octokit/fixtures do; its description lists only the named paths they stand for.
    aliases: [
      { from: /^\/repositories\/\d+\//, to: '/repos/{owner}/{repo}/' },
      { from: /^\/organizations\/\d+\//, to: '/orgs/{org}/' },
      { from: /^\/user\/\d+\//, to: '/users/{username}/' },
    ],
    exempt: [
      { route: /^POST \/graphql$/, reason: 'the GraphQL API, which the REST description does not cover' },
      { route: /^GET \/_codeload\//, reason: `codeload.github.com: ${DOWNLOAD_HOST}` },
    ],
    gaps: [
      {
        violation:
          /\(as GET \/search\/issues\): answer 200: \$\.items\[\]\.body: null, the description says string/,
        reason:
          "an issue without a body is null in GitHub's answers (as `issue.body`, which the description marks nullable)",
      },
    ],
  },
  // Gmail's discovery document, reduced as Drive's.
  gmail: {
    kind: 'openapi',
    exempt: [{ route: /^POST \/token$/, reason: `oauth2.googleapis.com/token: ${TOKEN_ENDPOINT}` }],
  },
  jira: { kind: 'openapi' },
  // Drive's discovery document, reduced to the same facts (scripts/reference-facts/discovery.ts).
  'google-drive': {
    kind: 'openapi',
    exempt: [{ route: /^POST \/token$/, reason: `oauth2.googleapis.com/token: ${TOKEN_ENDPOINT}` }],
  },
  // REST API v2 and v1 merged into one facts file (their paths differ: /wiki/api/v2, /wiki/rest/api).
  confluence: {
    kind: 'openapi',
    exempt: [
      {
        route: /^GET \/wiki\/download\/attachments\//,
        reason:
          "the site's download servlet an attachment's downloadLink names (it redirects to the media host), not a REST operation",
      },
    ],
  },
  notion: {
    kind: 'openapi',
    gaps: [
      {
        violation: /\(as POST \/v1\/comments\): body member discussion_id is not declared/,
        reason:
          "Notion's reference (Create comment) takes `discussion_id` instead of `parent` to reply in a thread; " +
          'the published description lists only `parent`',
      },
      {
        violation: /\(as POST \/v1\/comments\): required body member parent is missing/,
        reason: 'the same reply: `parent` is required only when no `discussion_id` is given',
      },
    ],
  },
  slack: {
    kind: 'openapi',
    refusalsAsDefault: true,
    credentialParams: ['token'],
    exempt: [
      { route: /^GET \/files-pri\//, reason: `files.slack.com's url_private: ${DOWNLOAD_HOST}` },
      {
        route: /^POST \/api\/bookmarks\.\w+$/,
        reason:
          "bookmarks.* came after Slack's published description; the fake follows api.slack.com/methods/bookmarks.add",
      },
    ],
    gaps: [
      {
        violation:
          /\(as POST \/api\/chat\.update\): answer 200: \$\.message\.blocks: array, the description says object/,
        reason:
          "Slack answers a message's blocks as an array (api.slack.com/reference/block-kit); its description types them as an object",
      },
    ],
  },
  stripe: { kind: 'openapi', bodyInQuery: true },
  'zendesk-support': {
    kind: 'openapi',
    pathSuffix: '.json',
    nullsUnmarked: true,
    exempt: [
      {
        route: /^GET \/api\/v2\/help_center\//,
        reason: "the Help Center API, which has its own description (not the Support API's)",
      },
      {
        route: /^GET \/(_zdusercontent|attachments\/token|hc\/article_attachments)\//,
        reason: DOWNLOAD_HOST,
      },
    ],
    gaps: [
      {
        violation:
          /\(as GET \/api\/v2\/satisfaction_ratings\/\{satisfaction_rating_id\}\): answer 200: \$\.satisfaction_rating: object, the description says array/,
        reason:
          "Zendesk's reference (Show Satisfaction Rating) answers one object under `satisfaction_rating`; the " +
          'description types the member as an array',
      },
      {
        violation: /\(as GET \/api\/v2\/slas\/policies\): query parameter (page|per_page) is not declared/,
        reason:
          "ces's definition accepts page/per_page on the SLA policies list for compatibility (every policy comes in " +
          "one answer) and passes them on; Zendesk's description declares no paging for it, and Zendesk ignores them",
      },
    ],
  },
  // The schema the fake executes with, built once per process from providers/linear.graphql.
  linear: { kind: 'graphql', endpoint: '/graphql', schema: linearSchema },
  gong: {
    kind: 'pages',
    exempt: [{ route: /^POST \/oauth2\/generate-customer-token$/, reason: TOKEN_ENDPOINT }],
  },
  hubspot: { kind: 'pages', exempt: [{ route: /^POST \/oauth\/v1\/token$/, reason: TOKEN_ENDPOINT }] },
  salesforce: {
    kind: 'pages',
    exempt: [{ route: /^POST \/services\/oauth2\/token$/, reason: TOKEN_ENDPOINT }],
  },
  shopify: {
    kind: 'pages',
    gaps: [
      {
        violation:
          /\(as GET \/admin\/api\/\{api_version\}\/metafields\.json\): query parameter product_id is not declared/,
        reason:
          "the hosted catalog's metafield_product_images takes product_id beside image_id; Shopify's page finds an " +
          "image's metafields by metafield[owner_id] alone, and ignores the extra parameter",
      },
    ],
  },
};

/** A hand-written facts file also names, per operation, the reference page it was written from. */
type PageFacts = OperationFacts & { pages: Record<string, string> };

const factsCache = new Map<string, OperationFacts>();
function factsOf(file: string): OperationFacts {
  let facts = factsCache.get(file);
  if (facts === undefined) {
    facts = JSON.parse(readFileSync(fileURLToPath(new URL(file, REFERENCE)), 'utf8')) as OperationFacts;
    factsCache.set(file, facts);
  }
  return facts;
}

/** The contract of `slug`'s fake over `exchanges`; undefined when the slug has none. */
export function runContract(slug: string, exchanges: readonly RecordedRequest[]): ContractResult | undefined {
  const contract = CONTRACTS[slug];
  if (contract === undefined) return undefined;
  if (contract.kind === 'graphql') return graphqlContract(contract, exchanges);
  if (contract.kind === 'openapi') return checkContract(factsOf(`${slug}.json`), exchanges, contract);
  const facts = factsOf(`${slug}.pages.json`) as PageFacts;
  const result = checkContract(facts, exchanges, contract);
  for (const key of Object.keys(facts.operations))
    if (!/^https:\/\/\S+$/.test(facts.pages[key] ?? ''))
      result.violations.push({
        kind: 'path',
        exchange: '(facts)',
        operation: key,
        detail: 'names no reference page',
      });
  return result;
}

function graphqlContract(
  { endpoint, schema: schemaOf }: { endpoint: string; schema: () => GraphQLSchema },
  exchanges: readonly RecordedRequest[],
): ContractResult {
  const schema = schemaOf();
  const result: ContractResult = { violations: [], checked: 0, operations: new Set(), exempted: 0 };
  for (const ex of exchanges) {
    const exchange = `${ex.method} ${ex.path}`;
    const pathname = new URL(ex.path, 'http://fake.invalid').pathname;
    if (ex.method !== 'POST' || pathname !== endpoint) {
      result.violations.push({ kind: 'path', exchange, detail: `the GraphQL API is POST ${endpoint} only` });
      continue;
    }
    result.checked += 1;
    let query: unknown;
    try {
      query = (JSON.parse(ex.body) as { query?: unknown }).query;
    } catch {
      query = undefined;
    }
    if (typeof query !== 'string') {
      result.violations.push({ kind: 'param', exchange, detail: 'the body carries no query' });
      continue;
    }
    try {
      const document = parse(query);
      for (const error of validate(schema, document))
        result.violations.push({ kind: 'param', exchange, detail: error.message });
      for (const def of document.definitions)
        if (def.kind === 'OperationDefinition')
          result.operations.add(`${def.operation} ${def.name?.value ?? '(anonymous)'}`);
    } catch (error) {
      result.violations.push({ kind: 'param', exchange, detail: String(error) });
    }
  }
  return result;
}
