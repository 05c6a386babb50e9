/**
 * What a chaos run checks at its end (docs/operations.md#chaos-runs), from the store and the
 * target repository: every change reported exactly once with the expected result, every
 * successful change merged exactly once and no failed one merged, no item left in a queue, and
 * no build request, node, nodeset request, semaphore or engine event left behind.
 */
import type { Knex } from 'knex';
import { git } from '../../../src/sources/git-cli';

/** Results that report an item (a reset or dequeued buildset is `DEQUEUED`, an unfinished one null). */
const NOT_REPORTED = ['DEQUEUED'];

export interface ChangeProgress {
  /** Changes with a reported buildset. */
  reported: Set<number>;
  /** Changes held by a queue item that has not left its pipeline (left items stay as rows). */
  queued: Set<number>;
}

export interface ChaosAudit {
  /** Changes pushed but never reported (and not in a queue either). */
  lost: number[];
  /** Changes reported more than once. */
  duplicateReports: number[];
  /** Changes merged more than once. */
  duplicateMerges: number[];
  /** Buildsets with more than one final build of a job (work done twice; retries are not final). */
  duplicateBuilds: number;
  /** Node requests fulfilled more than once (a request sent again by a new leader although it had been answered). */
  duplicateNodeFulfilments: number;
  /** Changes still in a queue. */
  stuck: number[];
  /** Changes whose report or merge differs from what their job decided (success merged, failure not). */
  wrongOutcome: string[];
  /** Leftovers: build requests not completed, nodes in use, nodeset requests (none returned), semaphore holders, unprocessed events. */
  leftovers: Record<string, number>;
}

function changesOf(value: unknown): number[] {
  const list = (typeof value === 'string' ? JSON.parse(value) : value) as Array<{ number?: number }>;
  return list.map((entry) => Number(entry.number)).filter((number) => Number.isInteger(number));
}

/** Reported buildset results per change (gate pipeline). */
async function reports(knex: Knex, tenant: string): Promise<Map<number, string[]>> {
  const rows: Array<{ change: number | string; result: string }> = await knex('buildsets')
    .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
    .join('refs', 'refs.id', 'buildset_refs.ref_id')
    .where({ 'buildsets.tenant': tenant, 'buildsets.pipeline': 'gate' })
    .whereNotNull('buildsets.result')
    .whereNotIn('buildsets.result', NOT_REPORTED)
    .select('refs.change', 'buildsets.result');
  const byChange = new Map<number, string[]>();
  for (const row of rows) {
    const change = Number(row.change);
    byChange.set(change, [...(byChange.get(change) ?? []), row.result]);
  }
  return byChange;
}

export async function changeProgress(knex: Knex, tenant: string): Promise<ChangeProgress> {
  const items: Array<{ changes: unknown }> = await knex('queue_items')
    .where({ tenant })
    .whereNull('dequeue_time')
    .select('changes');
  return {
    reported: new Set((await reports(knex, tenant)).keys()),
    queued: new Set(items.flatMap((item) => changesOf(item.changes))),
  };
}

/** How often each change was merged into master: merge commits `Merge change N,1 ...` and commits `Change N` on the first-parent line. */
export async function mergeCounts(repo: string): Promise<Map<number, number>> {
  const { stdout } = await git(repo, ['log', '--first-parent', '--format=%s', 'master']);
  const counts = new Map<number, number>();
  for (const subject of stdout.split('\n')) {
    const match = /^Merge change (\d+),\d+ into master$/.exec(subject) ?? /^Change (\d+)$/.exec(subject);
    if (match) {
      const change = Number(match[1]);
      counts.set(change, (counts.get(change) ?? 0) + 1);
    }
  }
  return counts;
}

async function duplicateFinalBuilds(knex: Knex, tenant: string): Promise<number> {
  const rows = await knex('builds')
    .join('buildsets', 'buildsets.id', 'builds.buildset_id')
    .where({ 'buildsets.tenant': tenant, 'builds.final': true })
    .groupBy('builds.buildset_id', 'builds.job_name')
    .havingRaw('count(*) > 1')
    .select('builds.buildset_id');
  return rows.length;
}

async function duplicateNodeFulfilments(knex: Knex, tenant: string): Promise<number> {
  const rows = await knex('engine_events')
    .where({ tenant, event_type: 'nodes-provisioned' })
    .groupByRaw("payload->>'requestId'")
    .havingRaw('count(*) > 1')
    .select(knex.raw("payload->>'requestId' as request_id"));
  return rows.length;
}

async function count(query: Knex.QueryBuilder): Promise<number> {
  const [row] = (await query.count({ n: '*' })) as Array<{ n: string | number }>;
  return Number(row?.n ?? 0);
}

export async function auditChaos(
  knex: Knex,
  options: { tenant: string; repo: string; changes: readonly number[]; failing: ReadonlySet<number> },
): Promise<ChaosAudit> {
  const reported = await reports(knex, options.tenant);
  const { queued } = await changeProgress(knex, options.tenant);
  const merges = await mergeCounts(options.repo);
  const audit: ChaosAudit = {
    lost: [],
    duplicateReports: [],
    duplicateMerges: [],
    duplicateBuilds: await duplicateFinalBuilds(knex, options.tenant),
    duplicateNodeFulfilments: await duplicateNodeFulfilments(knex, options.tenant),
    stuck: [...queued].sort((a, b) => a - b),
    wrongOutcome: [],
    leftovers: {
      buildRequestsNotCompleted: await count(knex('build_requests').whereNot({ state: 'completed' })),
      nodesInUse: await count(knex('nodes').where({ state: 'in-use' })),
      nodesetRequests: await count(knex('nodeset_requests')),
      semaphoreHolders: await count(knex('semaphore_holders')),
      eventsUnprocessed: await count(knex('engine_events').whereNull('processed')),
    },
  };
  for (const change of options.changes) {
    const results = reported.get(change) ?? [];
    const merged = merges.get(change) ?? 0;
    if (results.length === 0 && !queued.has(change)) {
      audit.lost.push(change);
    }
    if (results.length > 1) {
      audit.duplicateReports.push(change);
    }
    if (merged > 1) {
      audit.duplicateMerges.push(change);
    }
    const expected = options.failing.has(change) ? 'FAILURE' : 'SUCCESS';
    const expectedMerges = expected === 'SUCCESS' ? 1 : 0;
    if (results.length === 1 && (results[0] !== expected || merged !== expectedMerges)) {
      audit.wrongOutcome.push(`${change}: reported ${results[0]}, merged ${merged} times (expected ${expected})`);
    }
  }
  return audit;
}

/** True when the audit found nothing wrong. */
export function auditClean(audit: ChaosAudit): boolean {
  return (
    audit.lost.length === 0 &&
    audit.duplicateReports.length === 0 &&
    audit.duplicateMerges.length === 0 &&
    audit.duplicateBuilds === 0 &&
    audit.duplicateNodeFulfilments === 0 &&
    audit.stuck.length === 0 &&
    audit.wrongOutcome.length === 0 &&
    Object.values(audit.leftovers).every((n) => n === 0)
  );
}
