/**
 * Item ETA calibration (docs/analytics.md#calibration): changes arrive at a dependent gate
 * (window 20, three jobs of the mix in random.ts with half their failure rates) and run through
 * the real engine and store with a fake clock; builds take the durations drawn for them, fail
 * (resetting the items behind) or are retried. Every two simulated minutes the status's item
 * ranges are recorded; when an item reports, each recorded range is compared with when it did.
 */
import { Engine } from '../../src/engine/engine';
import { InProcessEventBus } from '../../src/engine/event-bus';
import type { BuildParams, ExecutorGateway } from '../../src/engine/ports/executor';
import type { Database } from '../../src/store/database';
import { FakeChanges } from '../../test/engine/fake-changes';
import { InstantNodes, ScriptedMerger } from '../../test/engine/scripted-gateways';
import { FakeClock, job, makeLayout, pipeline } from '../../test/engine/scripted-layout';
import { JOB_MIX, drawRun, percentOf, seeded } from './random';

const SAMPLE_MS = 120_000;
const GATE_JOBS = JOB_MIX.filter((profile) => profile.name !== 'docs').map((profile) => ({
  ...profile,
  failure: profile.failure / 2,
}));

/** Builds run until the simulation finishes them. */
class SimulatedExecutor implements ExecutorGateway {
  readonly started: BuildParams[] = [];
  readonly running = new Set<string>();
  startBuild(params: BuildParams): Promise<void> {
    if (!this.running.has(params.buildUuid) && !this.started.some((p) => p.buildUuid === params.buildUuid)) {
      this.started.push(params);
      this.running.add(params.buildUuid);
    }
    return Promise.resolve();
  }
  cancelBuild(_tenant: string, buildUuid: string): Promise<void> {
    this.running.delete(buildUuid);
    return Promise.resolve();
  }
  resumeBuild(): Promise<void> {
    return Promise.resolve();
  }
}

export interface GateCalibration {
  changes: number;
  reported: number;
  failedReports: number;
  predictions: number;
  p50Error: number[];
  withinP90: number;
  belowP50: number;
  legacyAvailable: number;
  legacyError: number[];
}

type Event =
  { at: number; kind: 'arrive'; change: number } | { at: number; kind: 'finish'; uuid: string; result: string };

export async function calibrateGate(database: Database, changes: number, seed = 7): Promise<GateCalibration> {
  const tenant = `gate-calibration-${seed}`;
  const random = seeded(seed * 31 + 1);
  const clock = new FakeClock();
  const bus = new InProcessEventBus();
  const fakeChanges = new FakeChanges();
  const executor = new SimulatedExecutor();
  const nodes = new InstantNodes();
  const layout = makeLayout({
    tenant,
    pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
    projects: [{ name: 'org/app' }],
    jobs: { 'org/app': { gate: GATE_JOBS.map((profile) => job(profile.name)) } },
  });
  let uuid = 0;
  const engine = new Engine({
    database,
    layouts: (name) => (name === tenant ? layout : null),
    gateways: { changes: fakeChanges, merger: new ScriptedMerger(fakeChanges), executor, nodes },
    bus,
    clock,
    pollIntervalMs: 60_000,
    logger: { error: (message, error) => console.error(message, error) },
    uuid: () => `${seed}`.padStart(4, '0') + String((uuid += 1)).padStart(28, '0'),
  });
  nodes.sink = (name, event) => engine.submitResult(name, event);
  const reported = new Map<string, { at: number; result: string }>();
  const enqueuedAt = new Map<string, number>();
  bus.subscribe(tenant, (delta) => {
    if (delta.type === 'item-reported') {
      reported.set(delta.itemUuid, { at: clock.now().getTime(), result: delta.result });
    }
  });
  await engine.startTenant(tenant);
  const events: Event[] = [];
  const schedule = (event: Event): void => {
    const index = events.findIndex((other) => other.at > event.at);
    events.splice(index < 0 ? events.length : index, 0, event);
  };
  let arrival = clock.now().getTime();
  for (let change = 1; change <= changes; change += 1) {
    arrival += (60 + random() * 300) * 1000;
    schedule({ at: arrival, kind: 'arrive', change });
  }
  let seen = 0;
  const predictions: Array<{ item: string; at: number; p50: number; p90: number; legacy: number | null }> = [];
  let lastSample = 0;
  while (events.length > 0) {
    const event = events.shift() as Event;
    clock.advance(event.at - clock.now().getTime());
    if (event.kind === 'arrive') {
      fakeChanges.add('org/app', event.change);
      const queued = await engine.enqueue(tenant, {
        pipeline: 'gate',
        project: 'org/app',
        change: `${event.change},1`,
        by: 'sim',
      });
      if (!queued.ok) {
        throw new Error(queued.error.message);
      }
    } else if (executor.running.has(event.uuid)) {
      executor.running.delete(event.uuid);
      await engine.submitResult(tenant, {
        type: 'build-completed',
        buildUuid: event.uuid,
        result: event.result as 'SUCCESS',
        endTime: clock.now().toISOString(),
      });
    }
    await engine.settle(tenant);
    // Builds the pass started: they start now and take what is drawn for them.
    while (seen < executor.started.length) {
      for (; seen < executor.started.length; seen += 1) {
        const params = executor.started[seen];
        const profile = GATE_JOBS.find((candidate) => candidate.name === params.job.name) ?? GATE_JOBS[0];
        const run = drawRun(random, profile, 1);
        enqueuedAt.set(params.itemUuid, enqueuedAt.get(params.itemUuid) ?? clock.now().getTime());
        await engine.submitResult(tenant, {
          type: 'build-started',
          buildUuid: params.buildUuid,
          startTime: clock.now().toISOString(),
        });
        const result = run.outcome === 'RETRY' ? 'ABORTED' : run.outcome;
        schedule({ at: clock.now().getTime() + run.seconds * 1000, kind: 'finish', uuid: params.buildUuid, result });
      }
      await engine.settle(tenant);
    }
    if (clock.now().getTime() - lastSample >= SAMPLE_MS) {
      lastSample = clock.now().getTime();
      const status = await engine.status(tenant);
      for (const item of status?.pipelines.flatMap((p) => p.changeQueues.flatMap((q) => q.items)) ?? []) {
        if (item.eta !== null && item.eta.remainingP50 !== null && item.eta.remainingP90 !== null) {
          predictions.push({
            item: item.id,
            at: lastSample,
            p50: item.eta.remainingP50,
            p90: item.eta.remainingP90,
            legacy: item.remainingTime,
          });
        }
      }
    }
  }
  await engine.stop();
  // The first fifth of the changes is warm-up: the estimates need history.
  const warmUp = [...enqueuedAt.entries()].sort((a, b) => a[1] - b[1])[Math.floor(enqueuedAt.size / 5)]?.[1] ?? 0;
  const result: GateCalibration = {
    changes,
    reported: reported.size,
    failedReports: [...reported.values()].filter((report) => report.result !== 'SUCCESS').length,
    predictions: 0,
    p50Error: [],
    withinP90: 0,
    belowP50: 0,
    legacyAvailable: 0,
    legacyError: [],
  };
  for (const prediction of predictions) {
    const report = reported.get(prediction.item);
    if (report === undefined || (enqueuedAt.get(prediction.item) ?? 0) < warmUp) {
      continue;
    }
    const actual = report.at - prediction.at;
    result.predictions += 1;
    result.p50Error.push(Math.abs(actual - prediction.p50) / 1000);
    result.withinP90 += actual <= prediction.p90 ? 1 : 0;
    result.belowP50 += actual <= prediction.p50 ? 1 : 0;
    if (prediction.legacy !== null) {
      result.legacyAvailable += 1;
      result.legacyError.push(Math.abs(actual - prediction.legacy) / 1000);
    }
  }
  return result;
}

function mean(values: readonly number[]): string {
  return values.length === 0
    ? 'n/a'
    : `${(values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(0)} s`;
}

function median(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 'n/a' : `${sorted[Math.floor(sorted.length / 2)].toFixed(0)} s`;
}

export function gateCalibrationRows(c: GateCalibration): string[] {
  return [
    `changes: ${c.changes}; reported: ${c.reported} (${c.failedReports} failed); ranges compared after warm-up: ${c.predictions}`,
    `item ETA p50: mean absolute error ${mean(c.p50Error)}, median ${median(c.p50Error)}; reported by its p50: ${percentOf(c.belowP50, c.predictions)}`,
    `reported within its p90: ${percentOf(c.withinP90, c.predictions)}`,
    `the reference's item remaining time: given for ${percentOf(c.legacyAvailable, c.predictions)} of those moments, mean absolute error ${mean(c.legacyError)}`,
  ];
}
