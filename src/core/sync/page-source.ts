/**
 * The pages a sync pass reads: the list params of each page (partition, incremental bounds, cursor), the
 * request for it, and what it held. One page is requested ahead: the pass asks for the next page (`prefetch`)
 * as soon as its checkpoint is known, so the provider works while the page before is encoded and written.
 * A page's cursor comes from the page before, so fetching can't run further ahead than that.
 */
import type { ConnectorRuntime, ExecuteOutput } from '../../connectors/runtime/executor.ts';
import { parseRecords, recordTexts } from '../../connectors/runtime/payload.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { columnValue, type EntityLayout, type IndexedField } from '../../context-store/layout.ts';
import type { SyncCheckpoint } from '../../context-store/sync-state.ts';
import { type PageFacts, partitionKey } from './checkpoint.ts';

/** Reads one page of an entity's collection: its `list`, or the `api_search` a Context Store declares. */
export type ListEntity = (
  entity: string,
  params: Record<string, unknown>,
  action?: 'list' | 'api_search',
  /** The records are stored as they came: the runtime may leave them unparsed (ExecuteInput.unparsedRecords). */
  unparsed?: boolean,
) => ReturnType<ConnectorRuntime['execute']>;

/** One page of a list, as the sync reads it. */
export interface ListPage {
  /** The parsed records; empty for a page left as bytes. */
  records: unknown[];
  /**
   * The provider's bytes of the list, not parsed, in the pieces they arrived in (joined, they are the list),
   * when the runtime left them so and the caller takes bytes.
   */
  bytes?: readonly Buffer[] | undefined;
  /** Each record's JSON as the provider wrote it, when known (scanned when asked: after the next request). */
  texts: () => string[] | undefined;
  /** The cursor of the next page; null: no next page. */
  next: string | null;
}

/**
 * The one place the sync reads an execute output. `takesBytes`: a list the runtime left unparsed is given as
 * its bytes (never parsed here); otherwise the records are read.
 */
export function pageOf(out: ExecuteOutput, takesBytes: boolean): ListPage {
  const meta = out.connector_metadata;
  const next = meta.has_next_page && meta.end_cursor ? meta.end_cursor : null;
  // In the pieces they arrived in: joined here, each page's bytes were a second copy on this thread.
  const { payload } = out;
  if (payload.kind === 'bytes' && takesBytes)
    return { records: [], bytes: payload.parts, texts: () => undefined, next };
  const records = parseRecords(payload);
  return { records: Array.isArray(records) ? records : [], texts: () => recordTexts(payload), next };
}

/** A page read by a pass: its content, and the facts its next checkpoint is decided on. */
export interface SourcePage extends ListPage, PageFacts {
  /** The key of the partition it was read from (of the checkpoint's highs). */
  key: string;
}

export class PageSource {
  /** Pages are asked for as bytes (see the constructor). */
  readonly asBytes: boolean;
  private readonly partitions: Array<Record<string, string>>;
  private readonly incField: IndexedField | undefined;
  private readonly action: 'list' | 'api_search';
  private readonly listParams: Record<string, { type?: string }>;
  private pending: Promise<SourcePage> | undefined;

  /**
   * Requests the page at `cp` at once (if the pass is not past its last partition). `storeTakesBytes`: the
   * store decodes pages itself, off this thread (SQLite's decoder thread); it is given the provider's bytes,
   * unless this pass needs the records as they arrive: to stop at the bound of a list read newest first, or to
   * start a new query before the provider's cap.
   */
  constructor(
    def: ConnectorDefinition,
    private readonly layout: EntityLayout,
    cp: SyncCheckpoint,
    private readonly list: ListEntity,
    storeTakesBytes: boolean,
  ) {
    const spec = layout.spec;
    const inc = spec.incremental;
    this.partitions = cp.partitions ?? [];
    this.incField = inc ? layout.fields.get(inc.field) : undefined;
    this.asBytes = storeTakesBytes && inc?.order !== 'descending' && spec.query_cap === undefined;
    this.action = spec.action ?? 'list';
    this.listParams = def.entities.find((e) => e.name === layout.entity)?.actions[this.action]?.params ?? {};
    this.prefetch(cp);
  }

  /** `cp` is past the last partition: the pass has read everything. */
  ended(cp: SyncCheckpoint): boolean {
    return cp.partition >= this.partitions.length;
  }

  /** A page is on its way (a `next()` will return one). */
  get fetching(): boolean {
    return this.pending !== undefined;
  }

  /** Requests the page at `cp`, unless the pass has ended there. */
  prefetch(cp: SyncCheckpoint): void {
    if (!this.ended(cp)) this.pending = this.fetch(cp);
  }

  /** The page requested last; undefined when none was. */
  async next(): Promise<SourcePage | undefined> {
    const page = await this.pending;
    this.pending = undefined;
    return page;
  }

  /** A pass that ends (done, stopped or failed) waits for the page on its way, whatever it brings. */
  async close(): Promise<void> {
    await this.pending?.catch(() => undefined);
  }

  private async fetch(at: SyncCheckpoint): Promise<SourcePage> {
    const page = pageOf(await this.request(at), this.asBytes);
    let newest: number | undefined;
    let oldest: number | undefined;
    if (this.incField) {
      for (const r of page.records) {
        const ms = columnValue(this.incField, r);
        if (typeof ms !== 'number') continue;
        if (newest === undefined || ms > newest) newest = ms;
        if (oldest === undefined || ms < oldest) oldest = ms;
      }
    }
    const key = partitionKey(this.partitions[at.partition] ?? {});
    return { ...page, key, count: page.records.length, newest, oldest };
  }

  private request(at: SyncCheckpoint): Promise<ExecuteOutput> {
    const spec = this.layout.spec;
    const inc = spec.incremental;
    const partition = this.partitions[at.partition] ?? {};
    const params: Record<string, unknown> = { ...(spec.params ?? {}), ...partition };
    const since = at.bounds[partitionKey(partition)] ?? at.start;
    if (inc?.param !== undefined && since)
      params[inc.param] = this.boundFor(inc.param, formatBound(since, inc.format, inc.lookback_seconds));
    if (inc?.until && at.until)
      params[inc.until] = this.boundFor(inc.until, formatBound(at.until, inc.format));
    if (at.cursor) params.cursor = at.cursor;
    return this.list(this.layout.entity, params, this.action, this.asBytes);
  }

  /** A Unix bound goes to a string param as text (Slack's `oldest`). */
  private boundFor(param: string, value: string | number): string | number {
    return this.listParams[param]?.type === 'string' ? String(value) : value;
  }
}

export function formatBound(
  iso: string,
  format: 'iso8601' | 'unix_seconds' | 'unix_ms' | 'datetime_minutes' | undefined,
  lookbackSeconds = 0,
): string | number {
  const ms = Date.parse(iso) - lookbackSeconds * 1000;
  if (format === 'unix_seconds') return Math.floor(ms / 1000);
  if (format === 'unix_ms') return ms;
  // Minute precision, rounded down, so the inclusive bound still covers the newest record seen.
  if (format === 'datetime_minutes') return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  // Second precision, as providers' `since` filters take it; the bound is inclusive, so nothing is skipped.
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
