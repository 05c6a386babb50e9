/**
 * The chaos driver (docs/operations.md#chaos-runs): starts `sluice serve` processes on one
 * PostgreSQL database, pushes changes into a gate (some with a failing job, so that items are
 * reported failed and the items behind them reset), and at moments recognised from the database
 * and the target repository SIGKILLs a process (mostly the one the moment belongs to) and starts
 * it again. It stops killing after a number of kill points, when every change is finished or at
 * a time bound; then it lets every process run, waits for the gate to finish (bounded) and audits.
 * The seed fixes every decision (failing changes, push gaps, moment kinds, delays, targets,
 * restart delays); the interleaving with the processes still depends on the machine.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { ServeProcess } from '../recovery-deployment';
import { auditChaos, auditClean, changeProgress, mergeCounts, type ChaosAudit } from './chaos-audit';
import { chaosDeployment, type ChaosDeployment } from './chaos-deployment';
import { MOMENT_KINDS, waitForLeaderTerm, waitForMoment, type MomentSources } from './kill-moments';
import { SeededRandom } from './seeded-random';

const TENANT = 'example';

/** The merge modes a run draws from: each applies a change differently, so a repeated merge shows differently. */
export const MERGE_MODES = ['merge', 'cherry-pick', 'squash-merge', 'rebase'] as const;

export interface ChaosOptions {
  seed: number;
  processes: number;
  /** Changes pushed in all. */
  changes: number;
  /** Share of changes whose job fails. */
  failRatio: number;
  /** Kill points after which the driver stops killing. */
  kills: number;
  /** Time after which the driver stops killing (ms from the start of the gate run). */
  killBudgetMs: number;
  /** Time the gate gets to finish once the killing stopped (ms). */
  finishBudgetMs: number;
  /** Changes pushed but not yet reported at once, at most. */
  maxOpen: number;
  jobSeconds: number;
  /** `org/app`'s merge mode; drawn from the seed among {@link MERGE_MODES} when unset. */
  mergeMode?: string;
  /**
   * Kill the leading scheduler so many ms (drawn between the two bounds) after it took the lead,
   * instead of at moments: takeovers back to back, each new leader starting from what the last
   * one committed.
   */
  killLeaderEveryMs?: readonly [number, number];
  log?: (line: string) => void;
}

export interface KillPoint {
  at: number;
  moment: string;
  process: number;
  /** The process killed was the one the moment belonged to. */
  owner: boolean;
}

export interface ChaosFigures {
  seed: number;
  processes: number;
  changes: number;
  failing: number[];
  mergeMode: string;
  killPoints: number;
  byMoment: Record<string, number>;
  audit: ChaosAudit;
  clean: boolean;
  /** Whether every change was finished before the finish budget ran out. */
  finished: boolean;
  durationMs: number;
  /** Changes merged (on master) and reported when the killing stopped. */
  mergedWhileKilling: number;
  reportedWhileKilling: number;
  loadBefore: number[];
  loadAfter: number[];
  kills: KillPoint[];
  /** Where the processes' output was kept (when the audit was not clean). */
  logDir: string | null;
}

interface Slot {
  index: number;
  process: ServeProcess | null;
  starting: Promise<void> | null;
  /** The child being started (spawned, not ready yet). */
  spawning: ChildProcess | null;
  /** The driver killed the child being started: start again at once. */
  killedStarting: boolean;
  /** Output of earlier incarnations. */
  outputs: string[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function startSlot(deployment: ChaosDeployment, slot: Slot, log: (line: string) => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      slot.process = await deployment.serve(slot.index, {
        onSpawn: (child) => {
          slot.spawning = child;
        },
      });
      return;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      slot.outputs.push(message);
      if (slot.killedStarting) {
        slot.killedStarting = false;
        attempt -= 1;
        continue;
      }
      log(`process ${slot.index} failed to start (attempt ${attempt}): ${message.slice(0, 400)}`);
      if (attempt >= 5) {
        throw err;
      }
      await sleep(500 * attempt);
    } finally {
      slot.spawning = null;
    }
  }
}

function restart(deployment: ChaosDeployment, slot: Slot, delayMs: number, log: (line: string) => void): void {
  slot.starting = (async () => {
    await sleep(delayMs);
    await startSlot(deployment, slot, log);
  })()
    .catch(() => undefined) // started again after the killing (startSlot logged why)
    .finally(() => {
      slot.starting = null;
    });
}

async function pollerReady(deployment: ChaosDeployment): Promise<boolean> {
  const row: { generation: string | number } | undefined = await deployment.database
    .knex('git_poller_state')
    .where({ connection: 'local', project: 'org/app' })
    .first('generation')
    .catch(() => undefined);
  return row !== undefined && Number(row.generation) > 0;
}

/** Every pushed change reported and none in a queue. */
async function finished(deployment: ChaosDeployment, pushed: number): Promise<boolean> {
  const { reported, queued } = await changeProgress(deployment.database.knex, TENANT);
  return queued.size === 0 && reported.size >= pushed;
}

/**
 * Kill a process while it starts (after `delayMs` into its start), when one is starting; the
 * index of the process, or null when none was starting.
 */
async function killStarting(slots: Slot[], delayMs: number): Promise<number | null> {
  const slot = slots.find((candidate) => candidate.spawning !== null);
  if (!slot) {
    return null;
  }
  const child = slot.spawning;
  await sleep(delayMs);
  if (slot.spawning !== child || child === null || slot.process !== null) {
    return null; // it got ready meanwhile (the next moment may kill it)
  }
  slot.killedStarting = true;
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve).exitCode !== null && resolve(undefined));
  return slot.index;
}

/** One line about the gate: changes reported and queued, build requests by state. */
async function gateSummary(deployment: ChaosDeployment): Promise<string> {
  const { knex } = deployment.database;
  const { reported, queued } = await changeProgress(knex, TENANT);
  const requests: Array<{ state: string; n: string | number }> = await knex('build_requests')
    .whereNot({ state: 'completed' })
    .groupBy('state')
    .select('state', knex.raw('count(*) as n'));
  const open = requests.map((row) => `${row.state} ${row.n}`).join(', ') || 'none open';
  const items: Array<{ state: string; n: string | number }> = await knex('queue_items')
    .whereNull('dequeue_time')
    .groupBy('state')
    .select('state', knex.raw('count(*) as n'));
  const holders = await knex('semaphore_holders').count({ n: '*' });
  const lease: { holder: string; epoch: number } | undefined = await knex('scheduler_leases').first('holder', 'epoch');
  return (
    `reported ${reported.size}, queued ${queued.size} (${items.map((row) => `${row.state} ${row.n}`).join(', ')}), ` +
    `build requests ${open}, semaphore holders ${Number(holders[0]?.n ?? 0)}, lease ${lease?.holder ?? 'none'}/${lease?.epoch ?? '-'}`
  );
}

/** Nothing left to run or to process now. */
async function restingNow(deployment: ChaosDeployment, total: number): Promise<boolean> {
  const { knex } = deployment.database;
  const open = await knex('build_requests').whereNot({ state: 'completed' }).first('id');
  const pending = await knex('engine_events').whereNull('processed').first('id');
  return open === undefined && pending === undefined && (await finished(deployment, total));
}

/**
 * The gate is at rest: nothing to run or process, and still so after a few polls of the
 * repository (the last merge's `ref-updated` is written by the next poll, 0.5 s later).
 */
async function atRest(deployment: ChaosDeployment, total: number): Promise<boolean> {
  if (!(await restingNow(deployment, total))) {
    return false;
  }
  await sleep(2000);
  return restingNow(deployment, total);
}

export async function runChaos(options: ChaosOptions): Promise<ChaosFigures> {
  const log = options.log ?? (() => undefined);
  const decide = new SeededRandom(options.seed);
  const pushRandom = new SeededRandom(options.seed ^ 0x5bd1e995);
  const changes = Array.from({ length: options.changes }, (_, i) => i + 1);
  const failing = changes.filter(() => decide.chance(options.failRatio));
  const mergeMode = options.mergeMode ?? decide.pick(MERGE_MODES);
  const loadBefore = os.loadavg();
  log(
    `chaos seed ${options.seed}: ${options.processes} processes, ${options.changes} changes, failing ${failing.join(' ')}, merge mode ${mergeMode}`,
  );
  const deployment = await chaosDeployment({
    processes: options.processes,
    failing,
    jobSeconds: options.jobSeconds,
    mergeMode,
  });
  const slots: Slot[] = Array.from({ length: options.processes }, (_, index) => ({
    index,
    process: null,
    starting: null,
    spawning: null,
    killedStarting: false,
    outputs: [],
  }));
  const sources: MomentSources = { knex: deployment.database.knex, tenant: TENANT, repo: deployment.appRepo };
  const kills: KillPoint[] = [];
  let pushed = 0;
  let pushError: unknown = null;
  const started = Date.now();
  try {
    await Promise.all(slots.map((slot) => startSlot(deployment, slot, log)));
    log(`${options.processes} processes started`);
    while (!(await pollerReady(deployment))) {
      await sleep(100);
    }
    log('org/app polled: pushing changes');
    const gateStart = Date.now();
    const pusher = (async () => {
      for (const change of changes) {
        while (pushed - (await changeProgress(sources.knex, TENANT)).reported.size >= options.maxOpen) {
          await sleep(200);
        }
        await deployment.pushChange(change);
        pushed = change;
        await sleep(pushRandom.int(0, 800));
      }
    })().catch((err: unknown) => {
      pushError = err;
    });

    while (
      kills.length < options.kills &&
      Date.now() - gateStart < options.killBudgetMs &&
      pushError === null &&
      !(pushed === options.changes && (await finished(deployment, pushed)))
    ) {
      const kind = options.killLeaderEveryMs ? 'timer' : decide.pick(MOMENT_KINDS);
      const timerMs = options.killLeaderEveryMs ? decide.int(...options.killLeaderEveryMs) : decide.int(200, 2500);
      const followOwner = options.killLeaderEveryMs !== undefined || decide.chance(0.75);
      const draw = decide.next();
      const restartDelay = decide.int(0, 1500);
      if (kind === 'starting') {
        const starting = await killStarting(slots, decide.int(0, 3000));
        if (starting !== null) {
          kills.push({ at: Date.now() - gateStart, moment: kind, process: starting, owner: true });
          log(
            `kill ${kills.length} (+${((Date.now() - gateStart) / 1000).toFixed(1)} s): process ${starting} while starting`,
          );
          continue;
        }
      }
      const moment = options.killLeaderEveryMs
        ? await waitForLeaderTerm(sources, (pid) => slots.some((slot) => slot.process?.child.pid === pid), {
            termMs: timerMs,
            timeoutMs: 60_000,
          })
        : await waitForMoment(sources, kind === 'starting' ? 'timer' : kind, { timerMs, timeoutMs: 8000 });
      const alive = slots.filter((slot) => slot.process !== null);
      if (alive.length === 0) {
        await sleep(100);
        continue;
      }
      const owned = followOwner ? alive.find((slot) => slot.process?.child.pid === moment.owner) : undefined;
      const target = owned ?? alive[Math.floor(draw * alive.length)];
      const victim = target?.process;
      if (!target || !victim) {
        continue;
      }
      victim.child.kill('SIGKILL');
      await victim.exited;
      target.outputs.push(victim.output());
      target.process = null;
      kills.push({
        at: Date.now() - gateStart,
        moment: moment.kind,
        process: target.index,
        owner: owned !== undefined,
      });
      log(
        `kill ${kills.length} (+${((Date.now() - gateStart) / 1000).toFixed(1)} s): process ${target.index} at ` +
          `${moment.kind}${owned ? ' (owner)' : ''}; ${await gateSummary(deployment)}`,
      );
      restart(deployment, target, restartDelay, log);
    }
    const mergedWhileKilling = (await mergeCounts(deployment.appRepo)).size;
    const reportedWhileKilling = (await changeProgress(sources.knex, TENANT)).reported.size;
    log(
      `killing stopped after ${kills.length} kill points; ${pushed} changes pushed, ` +
        `${reportedWhileKilling} reported, ${mergedWhileKilling} merged`,
    );
    await pusher;
    if (pushError !== null) {
      throw pushError;
    }
    await Promise.all(slots.map((slot) => slot.starting));
    for (const slot of slots.filter((candidate) => candidate.process === null)) {
      await startSlot(deployment, slot, log);
    }
    const finishDeadline = Date.now() + options.finishBudgetMs;
    let done = false;
    while (!(done = await atRest(deployment, options.changes)) && Date.now() < finishDeadline) {
      await sleep(250);
    }
    const audit = await auditChaos(deployment.database.knex, {
      tenant: TENANT,
      repo: deployment.appRepo,
      changes,
      failing: new Set(failing),
    });
    const clean = done && auditClean(audit);
    const figures: ChaosFigures = {
      seed: options.seed,
      processes: options.processes,
      changes: options.changes,
      failing,
      mergeMode,
      killPoints: kills.length,
      byMoment: kills.reduce<Record<string, number>>((acc, kill) => {
        acc[kill.moment] = (acc[kill.moment] ?? 0) + 1;
        return acc;
      }, {}),
      audit,
      clean,
      finished: done,
      durationMs: Date.now() - started,
      mergedWhileKilling,
      reportedWhileKilling,
      loadBefore,
      loadAfter: os.loadavg(),
      kills,
      logDir: null,
    };
    // SLUICE_CHAOS_KEEP_LOGS=1 keeps them for a clean run too (docs/operations.md#chaos-runs).
    if (!clean || process.env.SLUICE_CHAOS_KEEP_LOGS === '1') {
      figures.logDir = await keepLogs(slots, figures, deployment);
    }
    return figures;
  } finally {
    await stopAll(slots);
    await deployment.close();
  }
}

/** The store's gate state, for a run that was not clean. */
async function snapshot(deployment: ChaosDeployment): Promise<Record<string, unknown>> {
  const { knex } = deployment.database;
  return {
    queueItems: await knex('queue_items').select('id', 'uuid', 'state', 'active', 'changes', 'buildset_uuid', 'data'),
    queueItemJobs: await knex('queue_item_jobs').select(),
    buildRequests: await knex('build_requests').orderBy('id').select('id', 'build_uuid', 'state', 'worker', 'result'),
    builds: await knex('builds').orderBy('id').select('id', 'buildset_id', 'uuid', 'result', 'final'),
    buildsets: await knex('buildsets').orderBy('id').select('id', 'uuid', 'result'),
    events: await knex('engine_events').orderBy('id').select('*'),
    engineWork: await knex('engine_work')
      .orderBy('id')
      .select('id', 'kind', 'state', 'epoch', 'outcome', 'created', 'updated'),
    leases: await knex('scheduler_leases').select(),
    components: await knex('components').select('id', 'kind', 'pid', 'state', 'heartbeat'),
  };
}

/** Keep every incarnation's output, the figures and the store's state for a run that was not clean. */
async function keepLogs(slots: Slot[], figures: ChaosFigures, deployment: ChaosDeployment): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-chaos-logs-'));
  for (const slot of slots) {
    const outputs = [...slot.outputs, slot.process?.output() ?? ''];
    writeFileSync(path.join(dir, `process-${slot.index}.log`), outputs.join('\n----- restart -----\n'));
  }
  writeFileSync(path.join(dir, 'figures.json'), JSON.stringify(figures, null, 2));
  writeFileSync(path.join(dir, 'store.json'), JSON.stringify(await snapshot(deployment), null, 2));
  return dir;
}

async function stopAll(slots: Slot[]): Promise<void> {
  await Promise.all(slots.map((slot) => slot.starting?.catch(() => undefined)));
  await Promise.all(
    slots.map(async (slot) => {
      const running = slot.process;
      if (running) {
        running.child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([running.exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
        clearTimeout(timer);
      }
    }),
  );
}
