// The site's issue fields, as GET /field (getFields, FieldDetails) and GET /field/search (getFieldsPaginated,
// Field) describe them: the system fields a Cloud site has, then `customFields` custom fields (default 84, so the
// catalog holds ≥ 120 fields like a real site). `onIssue` says whether the field appears in an issue's `fields`
// (statusCategory, issuekey and thumbnail are search-only pseudo fields).

export interface FieldDef {
  id: string;
  name: string;
  custom: boolean;
  orderable: boolean;
  navigable: boolean;
  searchable: boolean;
  clauseNames: string[];
  schema?: Record<string, unknown>;
  onIssue: boolean;
  /** field/search extras */
  description?: string;
  searcherKey?: string;
  screensCount: number;
  contextsCount: number;
  lastUsed?: string;
}

type Sys = [id: string, name: string, flags: string, clauseNames: string[], type?: string, items?: string];

// flags: o = orderable, n = navigable, s = searchable, x = not on the issue
const SYSTEM: Sys[] = [
  ['statuscategorychangedate', 'Status Category Changed', 'ns', ['statusCategoryChangedDate'], 'datetime'],
  ['parent', 'Parent', 'n', ['parent']],
  ['fixVersions', 'Fix versions', 'ons', ['fixVersion'], 'array', 'version'],
  ['resolution', 'Resolution', 'ons', ['resolution'], 'resolution'],
  ['lastViewed', 'Last Viewed', 'n', ['lastViewed'], 'datetime'],
  ['priority', 'Priority', 'ons', ['priority'], 'priority'],
  ['labels', 'Labels', 'ons', ['labels'], 'array', 'string'],
  ['timeestimate', 'Remaining Estimate', 'n', ['remainingEstimate', 'timeestimate'], 'number'],
  ['aggregatetimeoriginalestimate', 'Σ Original Estimate', 'n', [], 'number'],
  ['versions', 'Affects versions', 'ons', ['affectedVersion'], 'array', 'version'],
  ['issuelinks', 'Linked Issues', 'ons', ['issueLink'], 'array', 'issuelinks'],
  ['assignee', 'Assignee', 'ons', ['assignee'], 'user'],
  ['status', 'Status', 'ns', ['status'], 'status'],
  ['components', 'Components', 'ons', ['component'], 'array', 'component'],
  ['issuekey', 'Key', 'nx', ['id', 'issue', 'issuekey', 'key']],
  ['aggregatetimeestimate', 'Σ Remaining Estimate', 'n', [], 'number'],
  ['creator', 'Creator', 'ns', ['creator'], 'user'],
  ['subtasks', 'Sub-tasks', 'n', ['subtasks'], 'array', 'issuelinks'],
  ['reporter', 'Reporter', 'ons', ['reporter'], 'user'],
  ['aggregateprogress', 'Σ Progress', 'n', [], 'progress'],
  ['progress', 'Progress', 'n', ['progress'], 'progress'],
  ['votes', 'Votes', 'n', ['votes'], 'votes'],
  ['worklog', 'Log Work', 'os', [], 'array', 'worklog'],
  ['issuetype', 'Issue Type', 'ons', ['issuetype', 'type'], 'issuetype'],
  ['timespent', 'Time Spent', 'n', ['timespent'], 'number'],
  ['project', 'Project', 'ns', ['project'], 'project'],
  ['aggregatetimespent', 'Σ Time Spent', 'n', [], 'number'],
  ['statusCategory', 'Status Category', 'nsx', ['statusCategory']],
  ['timetracking', 'Time tracking', 'os', [], 'timetracking'],
  ['attachment', 'Attachment', 'os', ['attachments'], 'array', 'attachment'],
  ['resolutiondate', 'Resolved', 'ns', ['resolutiondate', 'resolved'], 'datetime'],
  ['workratio', 'Work Ratio', 'ns', ['workratio'], 'number'],
  ['issuerestriction', 'Restrict to', 'os', [], 'issuerestriction'],
  ['watches', 'Watchers', 'n', ['watchers'], 'watches'],
  ['thumbnail', 'Images', 'nx', []],
  ['created', 'Created', 'ns', ['created', 'createdDate'], 'datetime'],
  ['updated', 'Updated', 'ns', ['updated', 'updatedDate'], 'datetime'],
  ['timeoriginalestimate', 'Original estimate', 'n', ['originalEstimate', 'timeoriginalestimate'], 'number'],
  ['description', 'Description', 'ons', ['description'], 'string'],
  ['security', 'Security Level', 'ons', ['level'], 'securitylevel'],
  ['summary', 'Summary', 'ons', ['summary'], 'string'],
  ['comment', 'Comment', 'os', ['comment'], 'comments-page'],
  ['environment', 'Environment', 'ons', ['environment'], 'string'],
  ['duedate', 'Due date', 'ons', ['due', 'duedate'], 'date'],
];

const PLUGIN = 'com.atlassian.jira.plugin.system.customfieldtypes';

/** Custom field kinds: [name, schema type, custom type key, searcher key, items?] */
const KINDS: Array<[string, string, string, string, string?]> = [
  ['Start date', 'date', `${PLUGIN}:datepicker`, `${PLUGIN}:daterange`],
  ['Story point estimate', 'number', 'com.pyxis.greenhopper.jira:jsw-story-points', `${PLUGIN}:exactnumber`],
  [
    'Rank',
    'any',
    'com.pyxis.greenhopper.jira:gh-lexo-rank',
    'com.pyxis.greenhopper.jira:gh-lexo-rank-searcher',
  ],
  [
    'Sprint',
    'array',
    'com.pyxis.greenhopper.jira:gh-sprint',
    'com.pyxis.greenhopper.jira:gh-sprint-searcher',
    'json',
  ],
  ['Flagged', 'array', `${PLUGIN}:multicheckboxes`, `${PLUGIN}:multiselectsearcher`, 'option'],
  [
    'Team',
    'team',
    'com.atlassian.jira.plugin.system.customfieldtypes:atlassian-team',
    `${PLUGIN}:teamsearcher`,
  ],
  ['Customer tier', 'option', `${PLUGIN}:select`, `${PLUGIN}:multiselectsearcher`],
  ['Release notes', 'string', `${PLUGIN}:textarea`, `${PLUGIN}:textsearcher`],
  ['Budget', 'number', `${PLUGIN}:float`, `${PLUGIN}:exactnumber`],
  ['Reviewers', 'array', `${PLUGIN}:multiuserpicker`, `${PLUGIN}:userpickergroupsearcher`, 'user'],
  ['Environment URL', 'string', `${PLUGIN}:url`, `${PLUGIN}:exacttextsearcher`],
  ['Deployed at', 'datetime', `${PLUGIN}:datetime`, `${PLUGIN}:datetimerange`],
];

export const STORY_POINTS = 'customfield_10001';
export const START_DATE = 'customfield_10000';
export const RANK = 'customfield_10002';

export function buildFields(customFields: number): FieldDef[] {
  const system: FieldDef[] = SYSTEM.map(([id, name, flags, clauseNames, type, items]) => ({
    id,
    name,
    custom: false,
    orderable: flags.includes('o'),
    navigable: flags.includes('n'),
    searchable: flags.includes('s'),
    clauseNames,
    ...(type === undefined ? {} : { schema: { type, ...(items ? { items } : {}), system: id } }),
    onIssue: !flags.includes('x'),
    screensCount: 0,
    contextsCount: 0,
  }));
  const custom: FieldDef[] = [];
  for (let i = 0; i < customFields; i++) {
    const [base, type, customType, searcherKey, items] = KINDS[i % KINDS.length] as (typeof KINDS)[number];
    const round = Math.floor(i / KINDS.length);
    const name = round === 0 ? base : `${base} ${round + 1}`;
    const customId = 10000 + i;
    custom.push({
      id: `customfield_${customId}`,
      name,
      custom: true,
      orderable: true,
      navigable: true,
      searchable: true,
      clauseNames: [`cf[${customId}]`, name, `${name}[${typeLabel(type)}]`],
      schema: { type, ...(items ? { items } : {}), custom: customType, customId },
      onIssue: true,
      description: `${name}: seeded custom field ${i + 1} of the fake site`,
      searcherKey,
      screensCount: (i * 7) % 5,
      contextsCount: 1 + (i % 3),
      // Half the fields were last used at a fixed date, the rest are not tracked.
      ...(i % 2 === 0 ? { lastUsed: `2024-0${1 + (i % 9)}-1${i % 10}T08:00:00.000+0000` } : {}),
    });
  }
  return [...system, ...custom];
}

function typeLabel(type: string): string {
  const labels: Record<string, string> = {
    date: 'Date',
    number: 'Number',
    any: 'Rank',
    array: 'List',
    team: 'Team',
    option: 'Dropdown',
    string: 'Paragraph',
    datetime: 'Date of First Response',
  };
  return labels[type] ?? 'Short text';
}

/** FieldDetails as GET /field answers it. */
export function fieldDetails(f: FieldDef): Record<string, unknown> {
  return {
    id: f.id,
    key: f.id,
    name: f.name,
    ...(f.custom ? { untranslatedName: f.name } : {}),
    custom: f.custom,
    orderable: f.orderable,
    navigable: f.navigable,
    searchable: f.searchable,
    clauseNames: f.clauseNames,
    ...(f.schema ? { schema: f.schema } : {}),
  };
}

/** Field as GET /field/search answers it; the optional members appear only when `expand` names them. */
export function fieldSearchItem(f: FieldDef, expand: Set<string>): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    ...(f.schema ? { schema: f.schema } : {}),
    ...(f.description ? { description: f.description } : {}),
    ...(expand.has('key') ? { key: f.id } : {}),
    ...(expand.has('stableId')
      ? { stableId: `sfid:${f.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` }
      : {}),
    ...(expand.has('isLocked') ? { isLocked: !f.custom || f.id === RANK } : {}),
    ...(expand.has('searcherKey') && f.searcherKey ? { searcherKey: f.searcherKey } : {}),
    ...(expand.has('screensCount') ? { screensCount: f.screensCount } : {}),
    ...(expand.has('contextsCount') ? { contextsCount: f.contextsCount } : {}),
    ...(expand.has('lastUsed')
      ? { lastUsed: f.lastUsed ? { type: 'TRACKED', value: f.lastUsed } : { type: 'NOT_TRACKED' } }
      : {}),
  };
}
