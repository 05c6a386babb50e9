import { computeTenantStatus } from '../../src/engine/status';
import type { BuildState, ItemState, JobState, PipelineState } from '../../src/model/pipeline-state';
import type { BuildResult } from '../../src/model/results';
import { job, pipeline } from '../engine/scripted-layout';

const NOW = new Date('2026-01-01T00:10:00Z');

function jobState(name: string, overrides: Partial<JobState> = {}): JobState {
  return {
    job: job(name),
    tries: 0,
    build: null,
    retryBuilds: [],
    waitReason: null,
    waitingStatus: null,
    nodeRequestId: null,
    nodesReady: false,
    nodes: [],
    semaphoresHeld: [],
    artifacts: [],
    ...overrides,
  };
}

function item(
  uuid: string,
  number: number,
  itemAhead: string | null,
  jobs: JobState[],
  overrides: Partial<ItemState> = {},
): ItemState {
  return {
    uuid,
    pipeline: 'gate',
    queueName: 'integrated',
    changes: [
      {
        kind: 'change',
        project: 'git.example.com/org/project',
        ref: `refs/changes/0${number}/${number}/1`,
        branch: 'master',
        number,
        patchset: '1',
        oldrev: null,
        newrev: 'abc',
        url: `https://git.example.com/c/${number}`,
        owner: 'alice',
        dependsOn: [],
        merged: false,
      },
    ],
    live: true,
    active: true,
    quiet: false,
    itemAhead,
    enqueueTime: '2026-01-01T00:00:00.000Z',
    eventId: null,
    eventTimestamp: null,
    triggeredBy: '',
    reportedStart: false,
    reported: false,
    dequeuedNeedingChange: null,
    failingReasons: [],
    firstJobStartTime: null,
    buildset: {
      uuid: `bs-${uuid}`,
      historyId: null,
      configured: true,
      mergeItems: [],
      mergeState: 'complete',
      files: [],
      unableToMerge: false,
      mergeError: null,
      configError: null,
      notInPipeline: false,
      jobGraphFrozen: true,
      jobs,
      failFast: false,
      result: null,
      startTime: null,
    },
    dequeueTime: null,
    dequeueReason: null,
    ...overrides,
  };
}

function build(uuid: string, start: string, result: BuildResult | null = null): BuildState {
  return {
    uuid,
    historyId: null,
    attempt: 1,
    executeTime: start,
    startTime: start,
    endTime: result ? '2026-01-01T00:09:00.000Z' : null,
    result,
    errorDetail: null,
    logUrl: `finger://executor/${uuid}`,
    canceled: false,
    retry: false,
    held: false,
    data: {},
    artifacts: [],
    submitted: true,
  };
}

const state: PipelineState = {
  name: 'gate',
  state: 'normal',
  disabled: false,
  consecutiveFailures: 0,
  queues: [
    {
      id: 1,
      name: 'integrated',
      branch: null,
      projects: ['git.example.com/org/project'],
      dynamic: false,
      window: 20,
      params: {
        window: 20,
        floor: 3,
        ceiling: null,
        increaseType: 'linear',
        increaseFactor: 1,
        decreaseType: 'exponential',
        decreaseFactor: 2,
      },
      items: [
        item('a', 1, null, [jobState('merge', { tries: 1, build: build('b1', '2026-01-01T00:05:00.000Z') })]),
        item('b', 2, 'a', [
          jobState('merge', { tries: 1, build: build('b2', '2026-01-01T00:08:00.000Z') }),
          jobState('test', {
            waitReason: 'dependencies',
            waitingStatus: 'dependencies: merge',
            job: job('test', { dependencies: [{ name: 'merge', soft: false }] }),
          }),
        ]),
        item('c', 3, 'b', [], {
          active: false,
          buildset: { ...item('x', 3, null, []).buildset, configured: false, jobGraphFrozen: false, mergeState: 'new' },
        }),
      ],
    },
  ],
};

const input = {
  tenant: 'tenant-one',
  version: '0.1.0',
  now: NOW,
  webRoot: 'https://sluice.example.com/t/tenant-one/',
  pipelines: [pipeline('gate', 'dependent', { description: 'Gate' })],
  states: [state],
  eventQueues: { triggerQueueDiscarding: false, triggerQueuePaused: true, resultQueuePaused: false, reason: 'upgrade' },
  pendingEvents: { trigger: 2, management: 1, result: 0 },
  pipelineEvents: new Map([['gate', { trigger: 1, management: 1, result: 0 }]]),
  lastReconfigured: new Date('2026-01-01T00:00:00Z'),
  // Build-time estimates by item and job, as the engine reads them from build history.
  estimatedTime: (item: ItemState, jobName: string) =>
    new Map([
      ['a/merge', 600],
      ['b/merge', 60],
    ]).get(`${item.uuid}/${jobName}`) ?? null,
};

describe('tenant status model', () => {
  it('computes elapsed and remaining times, waiting reasons and chains', () => {
    const status = computeTenantStatus(input);
    const queue = status.pipelines[0].changeQueues[0];
    expect(queue.heads).toHaveLength(1);
    const [first, second, third] = queue.heads[0];
    expect(first.jobs[0]).toMatchObject({
      elapsedTime: 300_000,
      remainingTime: 300_000,
      reportUrl: 'https://sluice.example.com/t/tenant-one/build/b1',
      url: 'stream/b1?logfile=console.log',
      tries: 1,
      queued: true,
      waitingStatus: null,
    });
    expect(first.remainingTime).toBe(300_000);
    // Not every job of the second item started: no item remaining time.
    expect(second.remainingTime).toBeNull();
    expect(second.jobs[1]).toMatchObject({
      name: 'test',
      dependencies: ['merge'],
      elapsedTime: null,
      waitingStatus: 'dependencies: merge',
      waitingFor: 'dependencies',
      tries: 0,
      queued: false,
      uuid: null,
      canceled: null,
    });
    expect([third.active, third.waitingFor, third.zuulRef, third.itemAhead, second.itemsBehind]).toEqual([
      false,
      'window',
      null,
      'b',
      ['c'],
    ]);
    expect(status.state.reason).toBe('upgrade');
    expect(status.triggerEventQueue.length).toBe(2);
  });

  it('counts pending events per pipeline and for the tenant', () => {
    const status = computeTenantStatus(input);
    expect([
      status.pipelines[0].triggerEvents,
      status.pipelines[0].managementEvents,
      status.pipelines[0].resultEvents,
    ]).toEqual([1, 1, 0]);
    expect([
      status.triggerEventQueue.length,
      status.managementEventQueue.length,
      status.resultEventQueue.length,
    ]).toEqual([2, 1, 0]);
    expect(status.lastReconfigured).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });
});

describe('status refs', () => {
  it('name projects from the layout and link changes whose state has no link', () => {
    const unlinked: PipelineState = {
      ...state,
      queues: state.queues.map((queue) => ({
        ...queue,
        items: queue.items.map((one) => ({
          ...one,
          changes: one.changes.map((change) => ({ ...change, url: change.number === 1 ? change.url : null })),
        })),
      })),
    };
    const status = computeTenantStatus({
      ...input,
      states: [unlinked],
      projectName: (canonicalName) => (canonicalName === 'git.example.com/org/project' ? 'org/project' : '?'),
      changeUrl: (change) => `https://sluice.example.com/t/tenant-one/change/${change.number},${change.patchset}`,
    });
    const refs = status.pipelines[0].changeQueues[0].heads[0].map((one) => one.refs[0]);
    expect(refs.map((ref) => [ref.project, ref.projectCanonical, ref.url])).toEqual([
      ['org/project', 'git.example.com/org/project', 'https://git.example.com/c/1'],
      ['org/project', 'git.example.com/org/project', 'https://sluice.example.com/t/tenant-one/change/2,1'],
      ['org/project', 'git.example.com/org/project', 'https://sluice.example.com/t/tenant-one/change/3,1'],
    ]);
    // Without a layout name, the name is what follows the host part.
    expect(computeTenantStatus(input).pipelines[0].changeQueues[0].heads[0][0].refs[0].project).toBe('org/project');
  });
});
