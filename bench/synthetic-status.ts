/**
 * A synthetic gate queue of N items for the status benchmarks: one dependent queue with a
 * window of 20, three jobs per item; the items inside the window have started builds (some
 * finished), the others wait for the window.
 */
import type { BuildState, ItemState, JobState, PipelineState } from '../src/model/pipeline-state';
import type { StatusInput } from '../src/engine/status';
import { estimatesFrom } from '../src/engine/build-estimates';
import { itemSampleKeys, jobSampleKeys, sampleKeyText, type DurationSamples } from '../src/model/estimates';
import { job, pipeline } from '../test/engine/scripted-layout';

const JOBS = ['unit', 'lint', 'integration'];
const WINDOW = 20;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function iso(offsetMs: number): string {
  return new Date(T0 + offsetMs).toISOString();
}

function build(n: number, name: string, finished: boolean): BuildState {
  return {
    uuid: `${name}-${n}`.padEnd(32, '0'),
    historyId: n,
    attempt: 1,
    executeTime: iso(n * 1000),
    startTime: iso(n * 1000 + 500),
    endTime: finished ? iso(n * 1000 + 60_000) : null,
    result: finished ? 'SUCCESS' : null,
    errorDetail: null,
    logUrl: `finger://executor/${name}-${n}`,
    canceled: false,
    retry: false,
    held: false,
    data: {},
    artifacts: [],
    submitted: true,
  };
}

function jobState(n: number, name: string, active: boolean): JobState {
  const started = active && name !== 'integration';
  return {
    job: job(name, { nodeset: { name: '', labels: ['ubuntu'] } }),
    tries: started ? 1 : 0,
    build: started ? build(n, name, name === 'lint') : null,
    retryBuilds: [],
    waitReason: started ? null : active ? 'nodes' : 'window',
    waitingStatus: started ? null : active ? 'node request: 1' : 'window',
    nodeRequestId: active && !started ? `nr-${n}` : null,
    nodesReady: false,
    nodes: [],
    semaphoresHeld: [],
    artifacts: [],
  };
}

export function syntheticItem(n: number, itemAhead: string | null, active: boolean): ItemState {
  const uuid = `item${String(n).padStart(28, '0')}`;
  return {
    uuid,
    pipeline: 'gate',
    queueName: 'integrated',
    changes: [
      {
        kind: 'change',
        project: `git.example.com/org/project-${n % 20}`,
        ref: `refs/changes/${n % 100}/${n}/1`,
        branch: 'master',
        number: n,
        patchset: '1',
        oldrev: null,
        newrev: 'abc',
        url: `https://git.example.com/c/${n}`,
        owner: 'alice',
        dependsOn: [],
        merged: false,
      },
    ],
    live: true,
    active,
    quiet: false,
    itemAhead,
    enqueueTime: iso(n),
    eventId: null,
    eventTimestamp: null,
    triggeredBy: '',
    reportedStart: active,
    reported: false,
    dequeuedNeedingChange: null,
    failingReasons: [],
    firstJobStartTime: null,
    buildset: {
      uuid: `bs${String(n).padStart(30, '0')}`,
      historyId: null,
      configured: active,
      mergeItems: [],
      mergeState: active ? 'complete' : 'new',
      files: [],
      unableToMerge: false,
      mergeError: null,
      configError: null,
      notInPipeline: false,
      jobGraphFrozen: true,
      jobs: JOBS.map((name) => jobState(n, name, active)),
      failFast: false,
      result: null,
      startTime: null,
    },
    dequeueTime: null,
    dequeueReason: null,
  };
}

/** A gate pipeline state with `count` items in one queue. */
export function syntheticPipeline(count: number): PipelineState {
  const items: ItemState[] = [];
  for (let n = 1; n <= count; n += 1) {
    items.push(syntheticItem(n, items[items.length - 1]?.uuid ?? null, n <= WINDOW));
  }
  return {
    name: 'gate',
    state: 'normal',
    disabled: false,
    consecutiveFailures: 0,
    queues: [
      {
        id: 1,
        name: 'integrated',
        branch: null,
        projects: [],
        dynamic: false,
        window: WINDOW,
        params: {
          window: WINDOW,
          floor: 3,
          ceiling: null,
          increaseType: 'linear',
          increaseFactor: 1,
          decreaseType: 'exponential',
          decreaseFactor: 2,
        },
        items,
      },
    ],
  };
}

/** Recent runs of every job and of the gate's items on the 20 projects: 50 runs each, one in ten failed. */
function syntheticSamples(): Map<string, DurationSamples> {
  const samples = new Map<string, DurationSamples>();
  const runs = (base: number): DurationSamples => ({
    outcomes: 'sssssssssf'.repeat(5),
    successes: Array.from({ length: 45 }, (_, n) => base + (n % 9) * 10),
    failures: Array.from({ length: 5 }, (_, n) => base / 2 + n),
  });
  for (let n = 0; n < 20; n += 1) {
    const project = `git.example.com/org/project-${n}`;
    for (const name of JOBS) {
      samples.set(sampleKeyText(jobSampleKeys(project, 'master', name)[0]), runs(300));
    }
    samples.set(sampleKeyText(itemSampleKeys('gate', project)[0]), runs(600));
  }
  return samples;
}

const estimates = estimatesFrom(syntheticSamples());

/** The status input of a tenant holding that pipeline. */
export function syntheticStatusInput(count: number): StatusInput {
  return {
    tenant: 'bench',
    version: '0.0.0',
    now: new Date(T0 + count * 1000 + 120_000),
    webRoot: 'https://sluice.example.com/t/bench/',
    pipelines: [pipeline('gate', 'dependent', { description: 'Gate' })],
    states: [syntheticPipeline(count)],
    eventQueues: { triggerQueueDiscarding: false, triggerQueuePaused: false, resultQueuePaused: false, reason: null },
    pendingEvents: { trigger: 0, management: 0, result: 0 },
    pipelineEvents: new Map(),
    lastReconfigured: new Date(T0),
    // Looked up as Engine.status does, from the recent runs of every job and item.
    estimatedTime: estimates.estimatedTime,
    estimates,
  };
}
