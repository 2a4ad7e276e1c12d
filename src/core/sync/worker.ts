/**
 * The replication worker: fills each connector's Context Store by paging through the `list` action of every
 * indexed entity, then keeps it fresh.
 *
 * Per (connector, entity) there is one sync row, leased by one worker at a time. A pass reads every partition
 * page by page; each page's records are written together with the checkpoint after it, so a process killed at
 * any point resumes from the last written page — records are upserted by primary key, so a page read twice is
 * neither lost nor duplicated. Passes: `backfill` (first read), then `incremental` (only what changed since the
 * largest timestamp seen, when the definition declares a filter for it) on an interval, and periodically `full`
 * (re-read everything; records the pass did not see are deleted: the reconcile of deletions).
 *
 * Failures (failures.ts): a rate limit only delays the sync (never fails it); a refusal that a retry would get
 * again (authentication, permission, not found, bad params) marks the entity Failed at once with the reason;
 * other errors retry with backoff and fail after a few attempts. Syncs of inactive workspaces (or with the
 * Context Store disabled) are not claimed: paused until reactivated.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { DefinitionRegistry } from '../../connectors/registry.ts';
import type { ConnectorRuntime } from '../../connectors/runtime/executor.ts';
import { parseRecords, recordTexts } from '../../connectors/runtime/payload.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { columnValue, definitionLayouts, type EntityLayout } from '../../context-store/layout.ts';
import { isDomainError } from '../../errors.ts';
import type { Vault } from '../../security/vault.ts';
import type {
  EncodedRecords,
  EntitySyncStatus,
  PageCommit,
  Store,
  SyncCheckpoint,
  SyncJob,
  SyncPass,
} from '../../store/port.ts';
import { openConnectorCall } from '../connectors/credential-store.ts';
import type { ContextStoreObserver, SyncOutcome } from '../context-store-observer.ts';
import { retryPlan } from './failures.ts';
import { type ListEntity, resolvePartitions } from './partitions.ts';

export interface SyncWorkerOptions {
  /** syncs run at once by this process */
  concurrency: number;
  /** time between the end of a pass and the next refresh */
  intervalMs: number;
  /** a full pass (reconciling deletions) at least this often */
  fullIntervalMs: number;
  /** how often an idle worker looks for due syncs */
  pollMs: number;
  /** how long a claimed sync stays ours without progress */
  leaseMs: number;
}

export interface SyncWorkerDeps {
  store: Store;
  registry: DefinitionRegistry;
  runtime: ConnectorRuntime;
  vault: Vault;
  now: () => Date;
  logger: Logger;
  /** Told of records written and of how each claimed sync ended (metrics); absent: no one. */
  observer?: ContextStoreObserver | undefined;
}

/** Entity count refreshed at most this often during a pass (a count over a large index is not free). */
const COUNT_EVERY_MS = 2000;
/** A batch of pages is written once it holds this many records or is this old. */
export const BATCH_RECORDS = 2000;
/** Or, for pages given to the store as bytes (counted once written), this many bytes of them. */
export const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_MS = 1000;
/**
 * Batches handed to the store's writer and not yet written. More than one keeps the provider busy while the
 * writer works (a page's cursor comes from the page before, so fetching can't run further ahead); each is
 * written with its own checkpoint, in order.
 */
const WRITES_IN_FLIGHT = 3;

class LeaseLost extends Error {}

export class SyncWorker {
  /** host:pid:random — a restarted process on this host can tell its predecessor's leases are orphaned. */
  readonly owner = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
  private readonly layouts = new Map<string, EntityLayout>();
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly deps: SyncWorkerDeps,
    private readonly opts: SyncWorkerOptions,
  ) {
    for (const def of deps.registry.all()) {
      for (const layout of definitionLayouts(def)) this.layouts.set(`${def.id}/${layout.entity}`, layout);
    }
  }

  layout(definitionId: string, entity: string): EntityLayout | undefined {
    return this.layouts.get(`${definitionId}/${entity}`);
  }

  private iso(offsetMs = 0): string {
    return new Date(this.deps.now().getTime() + offsetMs).toISOString();
  }

  /** Starts the claim loop; resolves once running. Leases left by a dead process of this host are freed first. */
  async start(): Promise<void> {
    await this.releaseOrphanedLeases();
    this.loop = this.run();
  }

  /** A sync may be due now (a connector was created or changed): look at once instead of at the next poll. */
  notify(): void {
    this.wake?.();
  }

  /** Stops claiming, lets running syncs stop at their next page (keeping their checkpoints), and waits. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.running]);
  }

  private async releaseOrphanedLeases() {
    const host = hostname();
    for (const owner of await this.deps.store.contextStore.leaseOwners()) {
      const [ownerHost, pid] = owner.split(':');
      if (ownerHost !== host || owner === this.owner) continue;
      if (!alive(Number(pid))) {
        const n = await this.deps.store.contextStore.releaseOwner(owner);
        this.deps.logger.info({ owner, syncs: n }, 'context store: released syncs of a process that is gone');
      }
    }
  }

  private async run() {
    while (!this.stopping) {
      while (!this.stopping && this.running.size < this.opts.concurrency) {
        let job: SyncJob | undefined;
        try {
          job = await this.deps.store.contextStore.claim(this.owner, this.iso(), this.iso(this.opts.leaseMs));
        } catch (err) {
          // The store failing (e.g. locked by another process for longer than its busy timeout) must not end
          // the loop: try again at the next poll.
          this.deps.logger.error({ err }, 'context store: claiming a sync failed');
          break;
        }
        if (!job) break;
        const task = this.runJob(job)
          .catch((err) => this.deps.logger.error({ err, entity: job.entity }, 'context store: sync crashed'))
          .finally(() => {
            this.running.delete(task);
            this.wake?.();
          });
        this.running.add(task);
      }
      if (this.stopping) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.opts.pollMs);
      });
      clearTimeout(this.timer);
      this.wake = undefined;
    }
  }

  /** One pass (or the rest of an interrupted one) of one entity. */
  async runJob(job: SyncJob): Promise<void> {
    const { store } = this.deps;
    const found = await store.connectors.getWithCredentials(job.organization_id, job.connector_id);
    if (!found) return; // deleted meanwhile: its sync rows went with it
    const { connector, credentials: stored } = found;
    const def = this.deps.registry.byId(connector.definition_id);
    const layout = def && this.layout(def.id, job.entity);
    const ended = (outcome: SyncOutcome) =>
      this.deps.observer?.syncPass(connector.connector_type, job.entity, job.pass, outcome);
    if (!def || !layout) {
      await this.fail(
        job,
        `Entity ${job.entity} is no longer indexed by this server's ${connector.connector_type} definition.`,
      );
      ended('failed');
      return;
    }
    if (connector.credentials_status === 'needs_reauth') {
      await this.fail(
        job,
        `The connector's credentials need re-authorisation: ${connector.credentials_error ?? ''}`.trim(),
      );
      ended('failed');
      return;
    }
    const call = openConnectorCall(this.deps, job.organization_id, connector, stored, def);
    const list: ListEntity = (entity, params, action = 'list', unparsed = false) =>
      this.deps.runtime.execute({ ...call, entity, action, params, unparsedRecords: unparsed });

    try {
      ended(await this.pass(job, def, layout, connector.replication_config, list));
    } catch (err) {
      if (err instanceof LeaseLost) {
        ended('lease_lost');
        return;
      }
      ended(await this.failed(job, err));
    }
  }

  private firstCheckpoint(
    job: SyncJob,
    layout: EntityLayout,
    config: Record<string, unknown>,
  ): SyncCheckpoint {
    const inc = layout.spec.incremental;
    const start = inc?.start_from ? config[inc.start_from] : undefined;
    const startBound = typeof start === 'string' && start ? start : null;
    const highs = parseHighs(job.high_water);
    return {
      partitions: null,
      partition: 0,
      cursor: null,
      generation: job.pass === 'incremental' ? Math.max(job.generation, 1) : job.generation + 1,
      highs,
      // Only an incremental pass starts from what was seen; backfill and full passes read the whole scope.
      bounds: inc && job.pass === 'incremental' ? highs : {},
      start: inc ? (startBound ?? inc.earliest ?? null) : null,
      until: inc?.until ? this.iso() : null,
    };
  }

  private statusDuring(job: SyncJob, ready: boolean): EntitySyncStatus {
    if (job.backfilled_at !== null) return 'Updating';
    return ready ? 'Preview' : 'Building Preview';
  }

  private async pass(
    job: SyncJob,
    def: ConnectorDefinition,
    layout: EntityLayout,
    config: Record<string, unknown>,
    list: ListEntity,
  ): Promise<'success' | 'stopped'> {
    const store = this.deps.store.contextStore;
    let cp = job.checkpoint ?? this.firstCheckpoint(job, layout, config);
    let ready = job.ready_for_search;
    if (cp.partitions === null) {
      cp = { ...cp, partitions: await resolvePartitions(layout, config, list) };
      if (
        !(await store.saveCheckpoint(job, cp, this.statusDuring(job, ready), this.iso(this.opts.leaseMs)))
      ) {
        throw new LeaseLost();
      }
    }
    const partitions = cp.partitions ?? [];
    const spec = layout.spec;
    const inc = spec.incremental;
    const incField = inc ? layout.fields.get(inc.field) : undefined;
    let lastCount = 0;
    let lastCommit = this.deps.now().getTime();
    let batch: EncodedRecords[] = [];
    let batchRecords = 0;
    let batchBytes = 0;
    // A store that decodes pages itself, off this thread (SQLite's decoder thread), is given the provider's bytes,
    // unless this pass needs the records as they arrive: to stop at the bound of a list read newest first, or
    // to start a new query before the provider's cap.
    const encodeBytes = store.encodeBytes?.bind(store);
    const asBytes = encodeBytes !== undefined && inc?.order !== 'descending' && spec.query_cap === undefined;

    // A Unix bound goes to a string param as text (Slack's `oldest`).
    const action = spec.action ?? 'list';
    const listParams = def.entities.find((e) => e.name === layout.entity)?.actions[action]?.params ?? {};
    const boundFor = (param: string, value: string | number) =>
      listParams[param]?.type === 'string' ? String(value) : value;
    const fetchPage = (at: SyncCheckpoint) => {
      const partition = partitions[at.partition] ?? {};
      const params: Record<string, unknown> = { ...(spec.params ?? {}), ...partition };
      const since = at.bounds[partitionKey(partition)] ?? at.start;
      if (inc?.param !== undefined && since)
        params[inc.param] = boundFor(inc.param, formatBound(since, inc.format, inc.lookback_seconds));
      if (inc?.until && at.until) params[inc.until] = boundFor(inc.until, formatBound(at.until, inc.format));
      if (at.cursor) params.cursor = at.cursor;
      return list(layout.entity, params, action, asBytes);
    };

    // The next page is requested while this one is processed, and batches are written (on the store's writer)
    // while the next ones are fetched and serialised: up to WRITES_IN_FLIGHT at once, written in order, each
    // with the checkpoint after it.
    let pending = cp.partition < partitions.length ? fetchPage(cp) : undefined;
    const writing: Array<Promise<PageCommit>> = [];
    /**
     * Waits until at most `inFlight` batches are being written; a lost lease ends the pass. The highs the store
     * found in pages given as bytes join the checkpoint's.
     */
    const written = async (inFlight = 0) => {
      while (writing.length > inFlight) {
        const done = await writing.shift();
        if (!done?.held) throw new LeaseLost();
        const later = Object.entries(done.highs).filter(
          ([k, v]) => !(Date.parse(v) <= Date.parse(cp.highs[k] ?? '')),
        );
        if (later.length > 0) cp = { ...cp, highs: { ...cp.highs, ...Object.fromEntries(later) } };
      }
    };
    try {
      while (pending) {
        const out = await pending;
        pending = undefined;
        // Left as bytes by the runtime, the records are parsed where they are written; the pass reads none here.
        // In the pieces they arrived in: joined here, each page's bytes were a second copy on this thread.
        const bytes = out.payload.kind === 'bytes' && encodeBytes ? out.payload.parts : undefined;
        const parsed = bytes ? [] : parseRecords(out.payload);
        const records = Array.isArray(parsed) ? parsed : [];
        let highs = cp.highs;
        if (incField) {
          const key = partitionKey(partitions[cp.partition] ?? {});
          const before = highs[key];
          let high = before === undefined ? -Infinity : Date.parse(before);
          for (const r of records) {
            const ms = columnValue(incField, r);
            if (typeof ms === 'number' && ms > high) high = ms;
          }
          if (Number.isFinite(high) && new Date(high).toISOString() !== before) {
            highs = { ...highs, [key]: new Date(high).toISOString() };
          }
        }
        const more = out.connector_metadata.has_next_page && out.connector_metadata.end_cursor;
        const read = (cp.read ?? 0) + records.length;
        const key = partitionKey(partitions[cp.partition] ?? {});
        // A provider that answers at most `query_cap` records per query (HubSpot's search: 10,000): before the
        // next page would pass it, a new query starts from the largest value seen (the list is sorted by it,
        // ascending), so the pass goes on instead of failing at the cap.
        const requery =
          more && spec.query_cap !== undefined && inc !== undefined && read + records.length > spec.query_cap;
        // A list read newest first (no filter to send): once a record is older than the bound, the rest are too.
        const bound = inc?.order === 'descending' ? (cp.bounds[key] ?? cp.start) : null;
        const boundMs = bound ? Date.parse(bound) - (inc?.lookback_seconds ?? 0) * 1000 : Number.NaN;
        const reachedBound =
          incField !== undefined &&
          Number.isFinite(boundMs) &&
          records.some((r) => {
            const ms = columnValue(incField, r);
            return typeof ms === 'number' && ms < boundMs;
          });
        const progressed = highs[key] !== undefined && highs[key] !== cp.bounds[key];
        const next: SyncCheckpoint =
          requery && progressed
            ? { ...cp, cursor: null, highs, bounds: { ...cp.bounds, [key]: highs[key] as string }, read: 0 }
            : more && !reachedBound
              ? { ...cp, cursor: out.connector_metadata.end_cursor, highs, read }
              : { ...cp, partition: cp.partition + 1, cursor: null, highs, read: 0 };
        if (!this.stopping && next.partition < partitions.length) pending = fetchPage(next);

        cp = next;
        // Encoded now, while the next page is on its way: the provider isn't left waiting for a batch's worth.
        // Each record's JSON is kept as the provider wrote it rather than serialised again.
        const high = incField ? { field: incField.name, key } : undefined;
        const encoded =
          bytes && encodeBytes
            ? encodeBytes(job.connector_id, layout, bytes, cp.generation, this.iso(), high)
            : store.encode(
                job.connector_id,
                layout,
                records,
                cp.generation,
                this.iso(),
                recordTexts(out.payload),
              );
        batch.push(encoded);
        batchRecords += encoded.count;
        batchBytes += encoded.bytes ?? 0;
        // Pages are written in batches: one transaction per page made the commit (index pages and full-text
        // segments written to the WAL) the largest cost of a backfill. The first page is written at once, so
        // the entity becomes searchable (Preview) as early as possible; a crash loses at most the batches not
        // yet written, which are read again from the checkpoint before them.
        const nowMs = this.deps.now().getTime();
        const flush =
          !ready ||
          !pending ||
          this.stopping ||
          batchRecords >= BATCH_RECORDS ||
          batchBytes >= BATCH_BYTES ||
          nowMs - lastCommit >= BATCH_MS;
        if (flush) {
          await written(WRITES_IN_FLIGHT - 1);
          ready = true;
          const count = nowMs - lastCount >= COUNT_EVERY_MS || !pending;
          if (count) lastCount = nowMs;
          const write = store.commitPage(
            job,
            { layout, pages: batch },
            cp,
            { status: this.statusDuring(job, true), ready_for_search: true, count },
            this.iso(),
            this.iso(this.opts.leaseMs),
          );
          // Awaited later (written()); until then a failure must not count as unhandled.
          write.catch(() => undefined);
          const observer = this.deps.observer;
          if (observer) {
            write.then(
              (done) => done.held && observer.recordsWritten(def.slug, layout.entity, done.records),
              noop,
            );
          }
          writing.push(write);
          batch = [];
          batchRecords = 0;
          batchBytes = 0;
          lastCommit = nowMs;
        }
        if (this.stopping && cp.partition < partitions.length) {
          await written();
          await store.release(job, { run_after: this.iso(), attempts: 0 }, this.iso());
          return 'stopped';
        }
      }
      await written();
    } finally {
      // A failed fetch ends the pass: the batches still being written finish first (or fail), so what the
      // caller does next (release, retry) comes after it.
      await pending?.catch(() => undefined);
      await Promise.allSettled(writing);
    }

    // The pass is complete.
    const reconcile = job.pass !== 'incremental';
    const nowMs = this.deps.now().getTime();
    const lastFull = reconcile ? nowMs : job.last_full_at ? Date.parse(job.last_full_at) : 0;
    const nextPass: SyncPass = inc && nowMs - lastFull < this.opts.fullIntervalMs ? 'incremental' : 'full';
    const done = await store.finishPass(
      job,
      layout,
      {
        pass: nextPass,
        run_after: this.iso(this.opts.intervalMs),
        high_water: inc ? JSON.stringify(cp.highs) : null,
        generation: cp.generation,
        reconcile,
      },
      this.iso(),
    );
    if (!done) throw new LeaseLost();
    this.deps.logger.debug(
      { connector: job.connector_id, entity: job.entity, pass: job.pass, definition: def.slug },
      'context store: pass finished',
    );
    return 'success';
  }

  private async fail(job: SyncJob, reason: string) {
    await this.deps.store.contextStore.release(
      job,
      { run_after: this.iso(this.opts.intervalMs), attempts: 0, status: 'Failed', last_error: reason },
      this.iso(),
    );
  }

  private async failed(job: SyncJob, err: unknown): Promise<SyncOutcome> {
    // Only our own messages (DomainError) are shown; they never carry credentials or upstream secrets.
    const reason = isDomainError(err) ? `${err.code}: ${err.message}` : 'Internal error while syncing.';
    if (!isDomainError(err)) this.deps.logger.error({ err, entity: job.entity }, 'context store: sync error');
    const plan = retryPlan(err, job.attempts, this.opts.intervalMs);
    if (plan.outcome === 'failed') {
      await this.fail(job, reason);
      return 'failed';
    }
    await this.deps.store.contextStore.release(
      job,
      {
        run_after: this.iso(plan.delayMs),
        attempts: plan.attempts,
        ...(plan.outcome === 'retry' ? { last_error: reason } : {}),
      },
      this.iso(),
    );
    return plan.outcome;
  }
}

const noop = () => undefined;

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function partitionKey(partition: Record<string, string>): string {
  return JSON.stringify(partition);
}

function parseHighs(value: string | null): Record<string, string> {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, string>)
      : {};
  } catch {
    return {};
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
