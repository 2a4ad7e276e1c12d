// The Salesforce REST API routes the definition uses, each naming the REST API Developer Guide page it follows
// (test/reference/providers/salesforce.pages.json lists the same pages per operation).
import type { Answer, Route } from '../../kit/index.ts';
import { type Dataset, OBJECTS, type Row } from './dataset.ts';
import { type Outcome, runSoql, runSosl } from './soql.ts';
import { attributes, DATA_ROOT, errorBody, MESSAGES } from './wire.ts';

const REST = 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest';
const ANALYTICS = 'https://developer.salesforce.com/docs/atlas.en-us.api_analytics.meta/api_analytics';
const V = '/services/data/{version}';

const notFound = (): Answer => ({ status: 404, body: errorBody('NOT_FOUND', MESSAGES.notFound) });
const withAttributes = (type: string, row: Row) => ({ attributes: attributes(type, String(row.Id)), ...row });

/** Query results held by their locator, as Salesforce keeps a query cursor open for the next batches. */
class Locators {
  private next = 1;
  private readonly open = new Map<string, { type: string; rows: Row[] }>();

  keep(type: string, rows: Row[]): string {
    const id = `01gDn${String(this.next++).padStart(10, '0')}AAA`;
    this.open.set(id, { type, rows });
    return id;
  }

  get(id: string) {
    return this.open.get(id);
  }
}

export function createRoutes(data: Dataset, batchSize: number): Route<unknown>[] {
  const locators = new Locators();
  const batch = (type: string, rows: Row[], from: number, locator?: string): Answer => {
    const page = rows.slice(from, from + batchSize).map((r) => withAttributes(type, r));
    const done = from + batchSize >= rows.length;
    const id = done ? undefined : (locator ?? locators.keep(type, rows));
    return {
      status: 200,
      body: {
        totalSize: rows.length,
        done,
        ...(done ? {} : { nextRecordsUrl: `${DATA_ROOT}/query/${id}-${from + batchSize}` }),
        records: page,
      },
    };
  };
  const answer = (outcome: Outcome, then: (type: string, rows: Row[]) => Answer): Answer =>
    'error' in outcome ? { status: 400, body: outcome.error } : then(outcome.type, outcome.rows);

  return [
    {
      method: 'GET',
      path: `${V}/sobjects`,
      operation: `${REST}/resources_describeGlobal.htm`,
      handle: () => ({
        status: 200,
        body: {
          encoding: 'UTF-8',
          maxBatchSize: 200,
          sobjects: OBJECTS.map((name) => ({
            name,
            label: name.replace(/([a-z])([A-Z])/g, '$1 $2'),
            keyPrefix: String(data.of(name)?.[0]?.Id ?? '').slice(0, 3),
            custom: false,
            queryable: true,
            searchable: name !== 'OpportunityStage' && name !== 'Organization',
            retrieveable: true,
            urls: {
              sobject: `${DATA_ROOT}/sobjects/${name}`,
              rowTemplate: `${DATA_ROOT}/sobjects/${name}/{ID}`,
            },
          })),
        },
      }),
    },
    {
      method: 'GET',
      path: `${V}/query`,
      operation: `${REST}/resources_query.htm`,
      handle: (req) => {
        const q = req.query.get('q');
        if (q === null || q.trim() === '')
          return { status: 400, body: errorBody('MALFORMED_QUERY', 'A query string has to be specified') };
        return answer(runSoql(data, q), (type, rows) => batch(type, rows, 0));
      },
    },
    {
      // dome_query: "These requests use nextRecordsUrl, and don't include any parameters."
      method: 'GET',
      path: `${V}/query/{locator}`,
      operation: `${REST}/dome_query.htm`,
      handle: (req) => {
        const m = /^(.+)-(\d+)$/.exec(req.params.locator ?? '');
        const open = m === null ? undefined : locators.get(m[1] as string);
        if (m === null || open === undefined || [...req.query.keys()].length > 0)
          return { status: 400, body: errorBody('INVALID_QUERY_LOCATOR', 'invalid query locator') };
        return batch(open.type, open.rows, Number(m[2]), m[1]);
      },
    },
    {
      method: 'GET',
      path: `${V}/search`,
      operation: `${REST}/resources_search.htm`,
      handle: (req) => {
        const q = req.query.get('q');
        if (q === null || q.trim() === '')
          return {
            status: 400,
            body: errorBody(
              'MALFORMED_SEARCH',
              'No search term found. The search term must be enclosed in braces.',
            ),
          };
        return answer(runSosl(data, q), (type, rows) => ({
          status: 200,
          body: { searchRecords: rows.map((r) => withAttributes(type, r)) },
        }));
      },
    },
    {
      method: 'GET',
      path: `${V}/sobjects/{sObject}/{id}`,
      operation: `${REST}/resources_sobject_retrieve_get.htm`,
      handle: (req) => {
        const type = req.params.sObject as string;
        if (data.of(type) === undefined)
          return { status: 404, body: errorBody('NOT_FOUND', `The requested resource does not exist`) };
        const row = data.find(type, req.params.id as string);
        if (row === undefined) return notFound();
        const fields = req.query.get('fields');
        if (fields === null) return { status: 200, body: withAttributes(type, row) };
        const picked: Row = {};
        for (const f of fields.split(',')) {
          if (!(f in row))
            return {
              status: 400,
              body: errorBody('INVALID_FIELD', `No such column '${f}' on sobject of type ${type}`),
            };
          picked[f] = row[f] ?? null;
        }
        return { status: 200, body: withAttributes(type, { Id: row.Id ?? null, ...picked }) };
      },
    },
    {
      method: 'GET',
      path: `${V}/sobjects/{sObject}/{id}/{blobField}`,
      operation: `${REST}/dome_sobject_blob_retrieve.htm`,
      handle: (req) => {
        const blob = { ContentVersion: 'VersionData', Attachment: 'Body' }[req.params.sObject as string];
        if (blob === undefined || req.params.blobField !== blob) return undefined;
        const row = data.find(req.params.sObject as string, req.params.id as string);
        const file = row === undefined ? undefined : data.stream(String(row.Id));
        if (file === undefined) return notFound();
        return {
          status: 200,
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(file.size) },
          body: file.body,
        };
      },
    },
    {
      method: 'GET',
      path: `${V}/analytics/reports`,
      operation: `${ANALYTICS}/sforce_analytics_rest_api_list_reports.htm`,
      handle: () => ({ status: 200, body: REPORTS.map(reportSummary) }),
    },
    {
      method: 'GET',
      path: `${V}/analytics/reports/{reportId}`,
      operation: `${ANALYTICS}/sforce_analytics_rest_api_getreportrundata.htm`,
      handle: (req) => {
        const report = REPORTS.find((r) => r.id === req.params.reportId);
        if (report === undefined)
          return {
            status: 404,
            body: errorBody(
              'NOT_FOUND',
              'The item you are trying to access has been deleted or does not exist.',
            ),
          };
        const details = req.query.get('includeDetails') !== 'false';
        const rows = data.of('Opportunity') ?? [];
        return {
          status: 200,
          body: {
            attributes: {
              type: 'Report',
              reportId: report.id,
              reportName: report.name,
              describeUrl: `${DATA_ROOT}/analytics/reports/${report.id}/describe`,
              instancesUrl: `${DATA_ROOT}/analytics/reports/${report.id}/instances`,
            },
            allData: true,
            hasDetailRows: details,
            reportMetadata: {
              id: report.id,
              name: report.name,
              reportFormat: 'TABULAR',
              detailColumns: ['OPPORTUNITY_NAME', 'AMOUNT'],
            },
            reportExtendedMetadata: {
              aggregateColumnInfo: { RowCount: { label: 'Record Count', dataType: 'int' } },
            },
            factMap: {
              'T!T': {
                aggregates: [{ label: String(rows.length), value: rows.length }],
                ...(details
                  ? {
                      rows: rows.map((r) => ({
                        dataCells: [
                          { label: String(r.Name), value: r.Id },
                          { label: String(r.Amount), value: r.Amount },
                        ],
                      })),
                    }
                  : {}),
              },
            },
          },
        };
      },
    },
  ];
}

export const REPORTS = [
  { id: '00ODn0000000001AAA', name: 'Pipeline by stage' },
  { id: '00ODn0000000002AAA', name: 'Open cases' },
];

const reportSummary = (r: { id: string; name: string }) => ({
  id: r.id,
  name: r.name,
  url: `${DATA_ROOT}/analytics/reports/${r.id}`,
  describeUrl: `${DATA_ROOT}/analytics/reports/${r.id}/describe`,
  instancesUrl: `${DATA_ROOT}/analytics/reports/${r.id}/instances`,
});
