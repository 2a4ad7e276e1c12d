/**
 * A connector type's skill (`connector-source:<definition id>`), generated from its definition: what it reads
 * and how to connect it, every entity and action, paging, Context Store search, examples and limits. Only the
 * definition's declarations are used: credential fields are named and described, never given a value.
 */
import { DEFAULT_MAX_CONCURRENCY } from '../../connectors/runtime/resilience.ts';
import { retryPolicy } from '../../connectors/runtime/retry.ts';
import {
  type ActionName,
  actionNames,
  authPlacements,
  type ConnectorDefinition,
  type CredentialOption,
} from '../../connectors/schema.ts';
import { definitionLayouts } from '../../context-store/layout.ts';
import {
  entitiesSection,
  entityBlocks,
  entitySection,
  examplesSection,
  isPaginated,
  pageSizeParam,
} from './connector-entities.ts';
import { exampleSearch, searchSection } from './connector-search.ts';
import {
  type ContentBlock,
  heading,
  json,
  list,
  paragraph,
  type SkillDocument,
  type SkillSection,
  table,
  tick,
} from './types.ts';

export const connectorSkillId = (def: ConnectorDefinition) => `connector-source:${def.id}`;

/** The API host, with the variables that have a default filled in (`{subdomain}.zendesk.com` stays a pattern). */
export function baseUrlHost(def: ConnectorDefinition): string {
  let url = def.base_url;
  for (const [name, v] of Object.entries(def.base_url_variables ?? {}))
    if (v.default !== undefined) url = url.replaceAll(`{${name}}`, v.default);
  const afterScheme = url.replace(/^[a-z]+:\/\//i, '');
  return afterScheme.split('/')[0] ?? afterScheme;
}

/** Where a base URL variable's value comes from, in the order the runtime tries them. */
function variableSources(
  name: string,
  v: { credential_field?: string; config_key?: string; default?: string },
): string[] {
  const key = v.config_key ?? (v.credential_field ? undefined : name);
  return [
    ...(v.credential_field ? [`credentials.${v.credential_field}`] : []),
    ...(key ? [`replication_config.${key} (or environment.${name} at create)`] : []),
    ...(v.default !== undefined ? ['the default'] : []),
  ];
}

function credentialBlocks(option: CredentialOption): ContentBlock[] {
  const rows = Object.entries(option.fields).map(([name, f]) => [
    name,
    option.required.includes(name) ? 'yes' : 'no',
    f.secret ? 'yes' : 'no',
    f.aliases?.join(', ') ?? '',
    `${f.title}: ${f.description}`,
  ]);
  const notes: string[] = [];
  const where = authPlacements(option)
    .map((a) => (a.type === 'header' || a.type === 'query' ? `${a.type} ${a.name}` : a.type))
    .join(' + ');
  notes.push(`Sent to the provider as: ${where}.`);
  if (option.refresh) {
    notes.push(
      option.refresh.grant_type === 'client_credentials'
        ? 'ces obtains each access token with the client id and secret (client_credentials grant).'
        : 'ces renews the access token with the refresh token before it expires; a refused renewal marks the connector credentials_status needs_reauth.',
    );
  }
  if (option.authorization) {
    notes.push(
      'Can be obtained through the consent flow (POST /api/v1/integrations/connectors/oauth/initiate, or the connect page) once the organization has registered its OAuth app (PUT /api/v1/oauth/credentials).',
    );
  }
  return [
    heading(option.title, 4),
    paragraph(option.description),
    list(notes),
    table(['Field', 'Required', 'Secret', 'Aliases', 'Description'], rows),
  ];
}

function createExample(def: ConnectorDefinition): Record<string, unknown> {
  const option = def.credential_options[0]!;
  const credentials: Record<string, string> = {};
  for (const name of option.required) credentials[name] = `<${name}>`;
  if (def.credential_options.length > 1) credentials.option_title = option.title;
  const config = def.replication_config as {
    properties: Record<string, { type?: unknown }>;
    required?: string[];
  };
  const replication: Record<string, unknown> = {};
  for (const key of config.required ?? [])
    replication[key] = config.properties[key]?.type === 'array' ? [`<${key} item>`] : `<${key}>`;
  // A base URL variable without a default must be given too (Zendesk's subdomain), where this option takes it.
  for (const [name, v] of Object.entries(def.base_url_variables ?? {})) {
    if (v.default !== undefined) continue;
    if (v.credential_field && option.fields[v.credential_field])
      credentials[v.credential_field] = `<${name}>`;
    else replication[v.config_key ?? name] = `<${name}>`;
  }
  return {
    workspace_name: 'default',
    definition_id: def.id,
    name: `my-${def.slug}`,
    credentials,
    ...(Object.keys(replication).length ? { replication_config: replication } : {}),
  };
}

function overviewSection(def: ConnectorDefinition): SkillSection {
  const layouts = definitionLayouts(def);
  const config = def.replication_config as {
    properties: Record<string, { type?: unknown; title?: unknown; description?: unknown }>;
    required?: string[];
  };
  const content: ContentBlock[] = [
    paragraph(def.description ?? `${def.name} through its API.`),
    table(
      ['Property', 'Value'],
      [
        ['Connector type (slug)', def.slug],
        ['Definition id', def.id],
        ['API host', baseUrlHost(def)],
        ['Provider documentation', def.documentation_url],
        ['Support level', def.support_level],
        ['Entities', String(def.entities.length)],
        ['Entities in the Context Store', layouts.map((l) => l.entity).join(', ') || 'none'],
      ],
    ),
  ];
  const variables = Object.entries(def.base_url_variables ?? {});
  if (variables.length) {
    content.push(
      heading('Base URL settings', 3),
      paragraph(`Requests go to ${tick(def.base_url)}; its variables are filled from:`),
      table(
        ['Variable', 'Filled from', 'Default', 'Description'],
        variables.map(([name, v]) => [
          name,
          variableSources(name, v).join(', then '),
          v.default ?? '',
          v.description,
        ]),
      ),
    );
  }
  content.push(
    heading('Credentials', 3),
    paragraph('One of these options; secret fields are encrypted at rest and never answered.'),
  );
  for (const option of def.credential_options) content.push(...credentialBlocks(option));
  const keys = Object.entries(config.properties);
  if (keys.length) {
    content.push(
      heading('replication_config', 3),
      table(
        ['Key', 'Type', 'Required', 'Description'],
        keys.map(([key, p]) => [
          key,
          typeof p.type === 'string' ? p.type : '',
          config.required?.includes(key) ? 'yes' : 'no',
          [p.title, p.description].filter((s) => typeof s === 'string').join(': '),
        ]),
      ),
    );
  }
  content.push(
    heading('Create a connector', 3),
    paragraph('POST /api/v1/integrations/connectors:'),
    json(createExample(def)),
  );
  return {
    id: 'overview',
    title: 'Overview',
    summary: `What ${def.name} reads, its API host, credential options and their fields, replication_config.`,
    content,
  };
}

function pagingSection(def: ConnectorDefinition): SkillSection {
  const rows: string[][] = [];
  for (const entity of def.entities) {
    for (const name of actionNames(entity)) {
      const action = entity.actions[name as ActionName]!;
      if (!isPaginated(action)) continue;
      const size = pageSizeParam(action);
      rows.push([
        `${entity.name}.${name}`,
        size ? size[0] : '',
        size?.[1].maximum !== undefined ? String(size[1].maximum) : '',
      ]);
    }
  }
  const aliases = def.execute_param_aliases?.cursor;
  return {
    id: 'paging',
    title: 'Paging',
    summary: 'How list, api_search and search page: params.cursor and connector_metadata.',
    content: [
      paragraph(
        `Every paginated action pages the same way, whatever ${def.name} does underneath: the answer's connector_metadata has ${tick('has_next_page')} and an opaque ${tick('end_cursor')}; pass it back as ${tick('params.cursor')} for the next page (the other params may be left out: the cursor replays the next-page request). The last page has has_next_page false and end_cursor null. A cursor that was altered or belongs to another connector is a 422 INVALID_CURSOR.${
          aliases
            ? ` ${def.name} also takes the cursor as ${aliases.map((a) => tick(`params.${a}`)).join(', ')}.`
            : ''
        }`,
      ),
      rows.length
        ? table(['Paginated action', 'Page size param', 'Max page size'], rows)
        : paragraph('No action of this connector type is paginated.'),
      paragraph(
        `Context Store ${tick('search')} pages with the same cursor and metadata: repeat the same query with params.cursor; limit is 1–1000 (default 100).`,
      ),
      paragraph(
        `Every list and api_search also takes ${tick('params.limit')}, the hosted service's name for the page size: it sets the action's page size param below (a limit above its maximum is clamped to it) and ces answers at most that many records per page; where no param sets the page size, limit only caps the records, and end_cursor resumes after the last one answered. Giving limit together with the page size param is a 422.`,
      ),
      json({ entity: '<entity>', action: 'list', params: { cursor: '<end_cursor>' } }),
    ],
  };
}

/** Limits the definition declares, one line per limit with the actions it applies to. */
function providerLimits(def: ConnectorDefinition): string[] {
  const grouped = new Map<string, string[]>();
  const add = (limit: string, where: string) => grouped.set(limit, [...(grouped.get(limit) ?? []), where]);
  for (const entity of def.entities) {
    for (const name of actionNames(entity)) {
      const action = entity.actions[name as ActionName]!;
      const where = `${entity.name}.${name}`;
      for (const [param, p] of Object.entries(action.params ?? {})) {
        if (p.maximum !== undefined) add(`${tick(param)} at most ${p.maximum}`, where);
        if (p.max_length !== undefined) add(`${tick(param)} at most ${p.max_length} characters`, where);
      }
      if (action.uses_hooks?.includes('empty_answer'))
        add('a query matching nothing answers an empty page, not a 404', where);
    }
    const cap = entity.context_store?.query_cap;
    if (cap !== undefined)
      add(
        `the provider answers at most ${cap} records per query (the sync splits larger reads)`,
        entity.name,
      );
  }
  return [...grouped].map(([limit, where]) => `${limit}: ${where.join(', ')}.`);
}

function rateLimitsSection(def: ConnectorDefinition): SkillSection {
  const retry = retryPolicy(def.retry);
  const rateRules = (def.errors?.rules ?? [])
    .filter((r) => r.error === 'rate_limited')
    .map((r) => {
      const cond = [
        `status ${r.when.status.join('/')}`,
        r.when.header
          ? `header ${r.when.header.name} ${r.when.header.equals !== undefined ? `= ${String(r.when.header.equals)}` : `contains "${r.when.header.contains}"`}`
          : undefined,
        r.when.body
          ? `body ${r.when.body.path.join('.')} ${r.when.body.equals !== undefined ? `= ${String(r.when.body.equals)}` : `contains "${r.when.body.contains}"`}`
          : undefined,
      ].filter(Boolean);
      return `${cond.join(' and ')} → 429 UPSTREAM_RATE_LIMITED`;
    });
  const retryAfter = [
    'Retry-After',
    ...(def.errors?.retry_after_headers ?? []).map((h) => `${h.name} (${h.format})`),
  ].join(', ');
  const limits = providerLimits(def);
  return {
    id: 'rate_limits',
    title: 'Rate limits and provider limits',
    summary: 'Proactive rate limit, concurrency, retries, and the limits the definition declares.',
    content: [
      table(
        ['Setting', 'Value'],
        [
          [
            'Proactive rate limit per connector',
            def.rate_limit
              ? `${def.rate_limit.requests} requests per ${def.rate_limit.per_seconds} s (bursts up to ${def.rate_limit.requests})`
              : "none declared: ces follows the provider's own 429 answers",
          ],
          [
            'Upstream requests in flight per connector',
            `${def.max_concurrency ?? DEFAULT_MAX_CONCURRENCY} (more wait; past the queue budget 503 UPSTREAM_BUSY)`,
          ],
          [
            'Retries (idempotent requests, 429/5xx/network errors)',
            `${retry.max_attempts} attempts in all, backoff from ${retry.initial_delay_ms} ms up to ${retry.max_delay_ms} ms`,
          ],
          [
            'Retry-After honoured up to',
            `${retry.max_retry_after_ms / 1000} s; longer waits answer 429 UPSTREAM_RATE_LIMITED with retry_after`,
          ],
          ['Wait read from', `${retryAfter}; default ${def.errors?.retry_after_default_seconds ?? 'none'} s`],
        ],
      ),
      heading('Rate-limit answers of the provider', 3),
      rateRules.length
        ? list(rateRules)
        : paragraph(
            'A 429 from the provider is UPSTREAM_RATE_LIMITED, with retry_after when it says how long.',
          ),
      heading('Known provider limits', 3),
      limits.length ? list(limits) : paragraph('The definition declares no other limits.'),
    ],
  };
}

function guidance(def: ConnectorDefinition): ContentBlock[] {
  const layouts = definitionLayouts(def);
  const suggested = layouts.find((l) => l.spec.suggested) ?? layouts[0];
  const listed = def.entities.find((e) => e.actions.list) ?? def.entities[0]!;
  return [
    heading(`Using ${def.name} through ces`, 2),
    list([
      `Find the connector: GET /api/v1/integrations/connectors?definition_id=${def.id} (or create one: section overview).`,
      layouts.length
        ? `Default read action: ${tick('search')} (records as an array) or ${tick('context_store_search')} (${tick('{data, meta}')}) on the Context Store entities (${layouts.map((l) => l.entity).join(', ')}): fast, no provider call. Check readiness first with GET /api/v1/integrations/connectors/{id}/inspect; on 409 CONTEXT_STORE_NOT_READY, or for an entity not listed here, use ${tick('list')}/${tick('get')} (live API).`
        : `Read with ${tick('list')} and ${tick('get')} (live API); no entity of ${def.name} is in the Context Store.`,
      'Keep answers small: select_fields (or exclude_fields) on list/get; params.fields on search.',
      'Page with connector_metadata.end_cursor passed back as params.cursor until has_next_page is false.',
      'Read the section you need before executing: entities.<entity> for one entity’s actions and params, search for the searchable fields and operators, examples for complete bodies.',
    ]),
    paragraph('Execute: POST /api/v1/integrations/connectors/{connector_id}/execute'),
    json(
      suggested
        ? { entity: suggested.entity, action: 'search', params: exampleSearch(suggested) }
        : { entity: listed.name, action: 'list', params: {} },
    ),
  ];
}

export function connectorSkill(def: ConnectorDefinition): SkillDocument {
  const layouts = definitionLayouts(def);
  const blocks = def.entities.map((e) => entityBlocks(def, e, 3));
  const perEntity = def.entities.map((e, i) => entitySection(e, blocks[i]!));
  const tags = [
    def.slug,
    def.name.toLowerCase(),
    'connector',
    ...(layouts.length ? ['search', 'context-store'] : []),
    ...def.entities.map((e) => e.name),
  ];
  return {
    id: connectorSkillId(def),
    kind: 'connector_source',
    title: def.name,
    summary: `How to use ${def.name} through ces: ${def.entities.length} entities (${def.entities
      .slice(0, 6)
      .map((e) => e.name)
      .join(
        ', ',
      )}${def.entities.length > 6 ? ', …' : ''}), credentials, paging, Context Store search, limits.`,
    tags: [...new Set(tags)],
    provenance: `connector source definition ${def.slug} (${def.id})`,
    warnings: [],
    guidance: guidance(def),
    sections: [
      overviewSection(def),
      entitiesSection(def, blocks),
      pagingSection(def),
      searchSection(def),
      examplesSection(def),
      rateLimitsSection(def),
      ...perEntity,
    ],
    partial: new Set(perEntity.map((s) => s.id)),
  };
}
