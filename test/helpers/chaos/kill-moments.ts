/**
 * The moments a chaos run kills at (docs/operations.md#chaos-runs), each recognised from the
 * database or the target repository rather than from a timer alone, with the process the moment
 * belongs to (the executor running a build, the scheduler leading the tenant) when there is one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

export const MOMENT_KINDS = [
  'timer',
  'build-requested',
  'build-running',
  'result-pending',
  'trigger-pending',
  'pass-committed',
  'merge-pushed',
  'merge-work',
  'starting',
] as const;

export type MomentKind = (typeof MOMENT_KINDS)[number];

export interface Moment {
  /** The kind waited for, or `timeout` when it did not come in time. */
  kind: MomentKind | 'timeout';
  /** The pid of the process the moment belongs to (null: any). */
  owner: number | null;
}

export interface MomentSources {
  knex: Knex;
  tenant: string;
  /** The bare repository whose `master` the gate merges into. */
  repo: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid in the holder of the tenant's live lease (`host:pid:random`), or null. */
export async function leaderPid(sources: MomentSources): Promise<number | null> {
  const row: { holder: string } | undefined = await sources
    .knex('scheduler_leases')
    .where({ tenant: sources.tenant })
    .where('expires_at', '>', sources.knex.raw('clock_timestamp()'))
    .first('holder');
  const pid = row ? Number(row.holder.split(':')[1]) : NaN;
  return Number.isInteger(pid) ? pid : null;
}

async function pendingEvent(sources: MomentSources, category: string): Promise<boolean> {
  const row = await sources
    .knex('engine_events')
    .where({ tenant: sources.tenant, category })
    .whereNull('processed')
    .first('id');
  return row !== undefined;
}

/** The pid of the executor running some build, or undefined when none runs. */
async function runningBuildOwner(sources: MomentSources): Promise<number | null | undefined> {
  const row: { pid: number | null } | undefined = await sources
    .knex('build_requests')
    .leftJoin('components', 'components.id', 'build_requests.worker')
    .where('build_requests.state', 'running')
    .first('components.pid as pid');
  return row === undefined ? undefined : (row.pid ?? null);
}

function masterTip(repo: string): string {
  const loose = path.join(repo, 'refs', 'heads', 'master');
  if (existsSync(loose)) {
    return readFileSync(loose, 'utf8').trim();
  }
  const packed = path.join(repo, 'packed-refs');
  const line = existsSync(packed)
    ? readFileSync(packed, 'utf8')
        .split('\n')
        .find((entry) => entry.endsWith(' refs/heads/master'))
    : undefined;
  return line?.split(' ')[0] ?? '';
}

async function busTop(sources: MomentSources): Promise<number> {
  const [row] = (await sources.knex('bus_messages').max({ id: 'id' })) as Array<{ id: string | number | null }>;
  return Number(row?.id ?? 0);
}

/**
 * Wait for a moment of `kind` (polling every `intervalMs`), at most `timeoutMs`; `timerMs` is
 * the delay of a `timer` moment.
 */
export async function waitForMoment(
  sources: MomentSources,
  kind: MomentKind,
  options: { timerMs: number; timeoutMs: number; intervalMs?: number },
): Promise<Moment> {
  if (kind === 'timer' || kind === 'starting') {
    await sleep(options.timerMs);
    return { kind, owner: null };
  }
  const interval = options.intervalMs ?? 50;
  const tip = kind === 'merge-pushed' ? masterTip(sources.repo) : '';
  const top = kind === 'pass-committed' ? await busTop(sources) : 0;
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    switch (kind) {
      case 'build-running': {
        const owner = await runningBuildOwner(sources);
        if (owner !== undefined) {
          return { kind, owner };
        }
        break;
      }
      case 'build-requested':
        if (await sources.knex('build_requests').where({ state: 'requested' }).first('id')) {
          return { kind, owner: await leaderPid(sources) };
        }
        break;
      case 'result-pending':
      case 'trigger-pending':
        if (await pendingEvent(sources, kind === 'result-pending' ? 'result' : 'trigger')) {
          return { kind, owner: await leaderPid(sources) };
        }
        break;
      case 'merge-work':
        // The leader's work runner reports and merges (docs/gating.md#engine-work); killed now, the next leader takes it over.
        if (
          await sources
            .knex('engine_work')
            .where({ tenant: sources.tenant, kind: 'branch-merge', state: 'running' })
            .first('id')
        ) {
          return { kind, owner: await leaderPid(sources) };
        }
        await sleep(Math.min(interval, 10));
        continue;
      case 'pass-committed':
        if ((await busTop(sources)) > top) {
          return { kind, owner: await leaderPid(sources) };
        }
        break;
      case 'merge-pushed':
        // The leader pushed a merge; its pass may not have committed yet.
        if (masterTip(sources.repo) !== tip) {
          return { kind, owner: await leaderPid(sources) };
        }
        await sleep(Math.min(interval, 10));
        continue;
    }
    await sleep(interval);
  }
  return { kind: 'timeout', owner: null };
}

/**
 * A leader's term: wait (at most `timeoutMs`) until one of the `alive` processes holds the
 * tenant's live lease, then `termMs` more; the moment belongs to the leader then. The term is
 * counted from the take-over, not from the last kill, so that on a loaded machine (where a
 * restart and a take-over take long) every leader still gets its term to commit work in.
 */
export async function waitForLeaderTerm(
  sources: MomentSources,
  alive: (pid: number) => boolean,
  options: { termMs: number; timeoutMs: number },
): Promise<Moment> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const pid = await leaderPid(sources);
    if (pid !== null && alive(pid)) {
      break;
    }
    if (Date.now() > deadline) {
      return { kind: 'timeout', owner: null };
    }
    await sleep(100);
  }
  await sleep(options.termMs);
  return { kind: 'timer', owner: await leaderPid(sources) };
}
