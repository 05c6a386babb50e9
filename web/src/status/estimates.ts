/**
 * The estimates behind the status page's ranges (docs/analytics.md#job-estimates): the table
 * the snapshot brings (`TenantStatus.estimates`), the keys to refresh it with after jobs
 * complete (`Tenant.estimates`), and the ranges of a queue's items computed with the same model
 * as the server (src/model/eta.ts), once per queue and clock tick however many rows read them.
 */
import { createContext, useContext } from 'react';
import type { DurationEstimate } from '../../../src/model/estimates';
import { jobEta, queueEta, type ItemEta, type JobEta } from '../../../src/model/eta';
import { useNow } from '../clock';
import type { EstimateKeyInput, StatusEstimateFieldsFragment } from '../generated/graphql';
import type { ItemStatus, JobStatus, PipelineStatus, QueueStatus } from './status-store';

/** Estimates by `estimateKey`. */
export type EstimateTable = ReadonlyMap<string, DurationEstimate>;

export const NO_ESTIMATES: EstimateTable = new Map();

function estimateKey(kind: 'JOB' | 'ITEM', project: string, branch: string | null, name: string): string {
  return `${kind}\n${project}\n${branch ?? ''}\n${name}`;
}

/** The table of a list of estimates as GraphQL gives them. */
export function estimateTable(entries: readonly StatusEstimateFieldsFragment[]): EstimateTable {
  return new Map(
    entries.map((entry) => [
      estimateKey(entry.kind, entry.project, entry.branch ?? null, entry.name),
      {
        basis: entry.estimate.basis.toLowerCase().replace('_', '-') as DurationEstimate['basis'],
        runs: entry.estimate.runs,
        successes: entry.estimate.successes,
        failures: entry.estimate.failures,
        success: entry.estimate.quantiles ?? null,
        failure: entry.estimate.failureQuantiles ?? null,
        failureProbability: entry.estimate.failureProbability,
        retryProbability: entry.estimate.retryProbability,
      },
    ]),
  );
}

/** Every key the live items of `pipelines` use (jobs on their first change's project and branch, and items). */
export function estimateKeys(pipelines: readonly PipelineStatus[]): EstimateKeyInput[] {
  const keys = new Map<string, EstimateKeyInput>();
  for (const pipeline of pipelines) {
    for (const queue of pipeline.changeQueues) {
      for (const item of queue.items) {
        const ref = item.refs[0];
        if (!item.live || ref === undefined) {
          continue;
        }
        const itemKey = { kind: 'ITEM' as const, project: ref.projectCanonical, branch: null, name: pipeline.name };
        keys.set(estimateKey('ITEM', itemKey.project, null, itemKey.name), itemKey);
        for (const job of item.jobs) {
          const branch = ref.branch ?? null;
          keys.set(estimateKey('JOB', ref.projectCanonical, branch, job.name), {
            kind: 'JOB',
            project: ref.projectCanonical,
            branch,
            name: job.name,
          });
        }
      }
    }
  }
  return [...keys.values()];
}

function jobEstimate(table: EstimateTable, item: ItemStatus, job: Pick<JobStatus, 'name'>): DurationEstimate | null {
  const ref = item.refs[0];
  return ref === undefined
    ? null
    : (table.get(estimateKey('JOB', ref.projectCanonical, ref.branch ?? null, job.name)) ?? null);
}

/** What the ranges of one queue read: its items in queue order, its window and manager, the estimates. */
export interface QueueRanges {
  pipeline: string;
  dependent: boolean;
  queue: Pick<QueueStatus, 'items' | 'window'>;
  estimates: EstimateTable;
}

export const QueueRangesContext = createContext<QueueRanges | null>(null);

const computed = new WeakMap<QueueRanges, { now: number; etas: Map<string, ItemEta> }>();

function itemEtas(source: QueueRanges, now: number): Map<string, ItemEta> {
  const cached = computed.get(source);
  if (cached !== undefined && cached.now === now) {
    return cached.etas;
  }
  const items = source.queue.items;
  const etas = queueEta(items, {
    window: source.queue.window,
    dependent: source.dependent,
    nowMs: now,
    job: (item, job) => jobEstimate(source.estimates, item, job),
    item: (item) => {
      const ref = item.refs[0];
      return ref === undefined
        ? null
        : (source.estimates.get(estimateKey('ITEM', ref.projectCanonical, null, source.pipeline)) ?? null);
    },
  });
  const byId = new Map<string, ItemEta>();
  items.forEach((item, index) => {
    const eta = etas[index];
    if (eta !== null) {
      byId.set(item.id, eta);
    }
  });
  computed.set(source, { now, etas: byId });
  return byId;
}

/** The range of an item of the enclosing queue, ticking with the shared clock. */
export function useItemEta(item: ItemStatus): ItemEta | null {
  const source = useContext(QueueRangesContext);
  const now = useNow();
  return source === null ? null : (itemEtas(source, now).get(item.id) ?? null);
}

/** The range of a job of an item of the enclosing queue, ticking with the shared clock. */
export function useJobEta(item: ItemStatus, job: JobStatus): { eta: JobEta; estimate: DurationEstimate } | null {
  const source = useContext(QueueRangesContext);
  const now = useNow();
  const estimate = source === null ? null : jobEstimate(source.estimates, item, job);
  if (estimate === null || estimate.success === null) {
    return null;
  }
  return { eta: jobEta(job, estimate, now), estimate };
}
