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
 * A pass is a loop over two parts: the pages (page-source.ts: params, the request ahead, what a page held;
 * checkpoint.ts: where the pass goes after each page) and their writing (batch-writer.ts).
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
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { definitionLayouts, type EntityLayout } from '../../context-store/layout.ts';
import { isDomainError } from '../../errors.ts';
import type { Vault } from '../../security/vault.ts';
import type { EntitySyncStatus, Store, SyncCheckpoint, SyncJob, SyncPass } from '../../store/port.ts';
import { openConnectorCall } from '../connectors/credential-store.ts';
import type { ContextStoreObserver, SyncOutcome } from '../context-store-observer.ts';
import { BatchWriter, LeaseLost } from './batch-writer.ts';
import { firstCheckpoint, nextCheckpoint, rulesOf } from './checkpoint.ts';
import { retryPlan } from './failures.ts';
import { type ListEntity, PageSource } from './page-source.ts';
import { resolvePartitions } from './partitions.ts';

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

  private statusDuring(job: SyncJob, ready: boolean): EntitySyncStatus {
    if (job.backfilled_at !== null) return 'Updating';
    return ready ? 'Preview' : 'Building Preview';
  }

  /**
   * Reads the pass's pages from its checkpoint on and writes them. The next page is requested while this one
   * is encoded and written, and batches are written (on the store's writer) while the next ones are fetched:
   * up to WRITES_IN_FLIGHT at once, in order, each with the checkpoint after it.
   */
  private async pass(
    job: SyncJob,
    def: ConnectorDefinition,
    layout: EntityLayout,
    config: Record<string, unknown>,
    list: ListEntity,
  ): Promise<'success' | 'stopped'> {
    const store = this.deps.store.contextStore;
    let cp = job.checkpoint ?? firstCheckpoint(job, layout, config, this.iso());
    if (cp.partitions === null) {
      cp = { ...cp, partitions: await resolvePartitions(layout, config, list) };
      const status = this.statusDuring(job, job.ready_for_search);
      if (!(await store.saveCheckpoint(job, cp, status, this.iso(this.opts.leaseMs)))) throw new LeaseLost();
    }
    const rules = rulesOf(layout);
    const writer = this.writer(job, def, layout, rules.tracksHigh);
    const source = new PageSource(def, layout, cp, list, store.encodeBytes !== undefined);
    try {
      for (let page = await source.next(); page; page = await source.next()) {
        cp = nextCheckpoint(rules, cp, page).checkpoint;
        // A stopping pass asks for no further page: the page just read is its last, and is written at once.
        if (!this.stopping) source.prefetch(cp);
        cp = await writer.add(page, cp, !source.fetching);
        if (this.stopping && !source.ended(cp)) {
          await writer.drain(cp);
          await store.release(job, { run_after: this.iso(), attempts: 0 }, this.iso());
          return 'stopped';
        }
      }
      cp = await writer.drain(cp);
    } finally {
      // A failed fetch or write ends the pass: the page on its way and the batches still being written finish
      // first (or fail), so what the caller does next (release, retry) comes after them.
      await source.close();
      await writer.settle();
    }
    await this.finishPass(job, def, layout, cp);
    return 'success';
  }

  private writer(job: SyncJob, def: ConnectorDefinition, layout: EntityLayout, tracksHigh: boolean) {
    const inc = layout.spec.incremental;
    return new BatchWriter({
      store: this.deps.store.contextStore,
      job,
      layout,
      connectorType: def.slug,
      status: this.statusDuring(job, true),
      highField: tracksHigh && inc ? inc.field : undefined,
      leaseMs: this.opts.leaseMs,
      now: this.deps.now,
      observer: this.deps.observer,
    });
  }

  /** The pass is complete: the next one is scheduled (a full one when due), and a full pass reconciles. */
  private async finishPass(job: SyncJob, def: ConnectorDefinition, layout: EntityLayout, cp: SyncCheckpoint) {
    const inc = layout.spec.incremental;
    const reconcile = job.pass !== 'incremental';
    const nowMs = this.deps.now().getTime();
    const lastFull = reconcile ? nowMs : job.last_full_at ? Date.parse(job.last_full_at) : 0;
    const nextPass: SyncPass = inc && nowMs - lastFull < this.opts.fullIntervalMs ? 'incremental' : 'full';
    const done = await this.deps.store.contextStore.finishPass(
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

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
