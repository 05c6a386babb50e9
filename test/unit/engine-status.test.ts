import { computeTenantStatus, toCurrentShape, toEarlierShape } from '../../src/engine/status';
import type { BuildState, ItemState, JobState, PipelineState } from '../../src/engine/model';
import type { BuildResult } from '../../src/model/results';
import { job, pipeline } from '../engine/scripted';

const NOW = new Date('2026-01-01T00:10:00Z');

function jobState(name: string, overrides: Partial<JobState> = {}): JobState {
  return { job: job(name), tries: 0, build: null, retryBuilds: [], waitReason: null, waitingStatus: null, nodeRequestId: null, nodesReady: false, nodes: [], semaphoresHeld: [], artifacts: [], ...overrides };
}

function item(uuid: string, number: number, itemAhead: string | null, jobs: JobState[], overrides: Partial<ItemState> = {}): ItemState {
  return {
    uuid,
    pipeline: 'gate',
    queueName: 'integrated',
    changes: [{ kind: 'change', project: 'git.example.com/org/project', ref: `refs/changes/0${number}/${number}/1`, branch: 'master', number, patchset: '1', oldrev: null, newrev: 'abc', url: `https://git.example.com/c/${number}`, owner: 'alice', dependsOn: [], merged: false }],
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
    buildset: { uuid: `bs-${uuid}`, historyId: null, configured: true, mergeItems: [], mergeState: 'complete', files: [], unableToMerge: false, mergeError: null, configError: null, notInPipeline: false, jobGraphFrozen: true, jobs, failFast: false, result: null, startTime: null },
    dequeueTime: null,
    dequeueReason: null,
    ...overrides,
  };
}

function build(uuid: string, start: string, estimated: number | null, result: BuildResult | null = null): BuildState {
  return { uuid, historyId: null, attempt: 1, executeTime: start, startTime: start, endTime: result ? '2026-01-01T00:09:00.000Z' : null, result, errorDetail: null, logUrl: `finger://executor/${uuid}`, estimatedTime: estimated, canceled: false, retry: false, held: false, data: {}, artifacts: [], submitted: true };
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
      params: { window: 20, floor: 3, ceiling: null, increaseType: 'linear', increaseFactor: 1, decreaseType: 'exponential', decreaseFactor: 2 },
      items: [
        item('a', 1, null, [jobState('merge', { tries: 1, build: build('b1', '2026-01-01T00:05:00.000Z', 600) })]),
        item('b', 2, 'a', [
          jobState('merge', { tries: 1, build: build('b2', '2026-01-01T00:08:00.000Z', 60) }),
          jobState('test', { waitReason: 'dependencies', waitingStatus: 'dependencies: merge', job: job('test', { dependencies: [{ name: 'merge', soft: false }] }) }),
        ]),
        item('c', 3, 'b', [], { active: false, buildset: { ...item('x', 3, null, []).buildset, configured: false, jobGraphFrozen: false, mergeState: 'new' } }),
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
};

describe('tenant status model', () => {
  it('computes elapsed and remaining times, waiting reasons and chains', () => {
    const status = computeTenantStatus(input);
    const queue = status.pipelines[0].changeQueues[0];
    expect(queue.heads).toHaveLength(1);
    const [first, second, third] = queue.heads[0];
    expect(first.jobs[0]).toMatchObject({ elapsedTime: 300_000, remainingTime: 300_000, reportUrl: 'https://sluice.example.com/t/tenant-one/build/b1', url: 'stream/b1?logfile=console.log', tries: 1, queued: true, waitingStatus: null });
    expect(first.remainingTime).toBe(300_000);
    // Not every job of the second item started: no item remaining time.
    expect(second.remainingTime).toBeNull();
    expect(second.jobs[1]).toMatchObject({ name: 'test', dependencies: ['merge'], elapsedTime: null, waitingStatus: 'dependencies: merge', waitingFor: 'dependencies', tries: 0, queued: false, uuid: null, canceled: null });
    expect([third.active, third.waitingFor, third.zuulRef, third.itemAhead, second.itemsBehind]).toEqual([false, 'window', null, 'b', ['c']]);
    expect(status.state.reason).toBe('upgrade');
    expect(status.triggerEventQueue.length).toBe(2);
  });

  it('renders the current (2025) REST shape', () => {
    const document = toCurrentShape(computeTenantStatus(input));
    expect(Object.keys(document)).toEqual(['zuul_version', 'trigger_event_queue', 'state', 'management_event_queue', 'connection_event_queues', 'last_reconfigured', 'pipelines']);
    expect(document.state).toEqual({ trigger_queue_discarding: false, trigger_queue_paused: true, result_queue_paused: false, reason: 'upgrade' });
    const pipelines = document.pipelines as Array<Record<string, unknown>>;
    expect(pipelines[0]).toMatchObject({ name: 'gate', description: 'Gate', state: 'normal', manager: 'dependent', triggers: [{ driver: 'git' }], trigger_events: 1, management_events: 1, result_events: 0 });
    const queues = pipelines[0].change_queues as Array<{ heads: Array<Array<Record<string, unknown>>> }>;
    const firstItem = queues[0].heads[0][0];
    expect(Object.keys(firstItem)).toEqual(['active', 'live', 'refs', 'id', 'item_ahead', 'items_behind', 'failing_reasons', 'zuul_ref', 'enqueue_time', 'jobs', 'remaining_time']);
    expect(firstItem.refs).toEqual([{ url: 'https://git.example.com/c/1', ref: 'refs/changes/01/1/1', project: 'org/project', project_canonical: 'git.example.com/org/project', owner: 'alice', id: '1,1' }]);
    const jobs = firstItem.jobs as Array<Record<string, unknown>>;
    expect(Object.keys(jobs[0])).toEqual(['name', 'dependencies', 'elapsed_time', 'remaining_time', 'url', 'finger_url', 'report_url', 'result', 'voting', 'uuid', 'execute_time', 'start_time', 'end_time', 'estimated_time', 'pipeline', 'canceled', 'paused', 'pre_fail', 'retry', 'tries', 'queued', 'waiting_status']);
    expect(jobs[0].start_time).toBe(Date.parse('2026-01-01T00:05:00Z') / 1000);
  });

  it('renders the earlier (2019) REST shape with change ids as links', () => {
    const document = toEarlierShape(computeTenantStatus(input));
    const pipelines = document.pipelines as Array<{ change_queues: Array<{ heads: Array<Array<Record<string, unknown>>> }> }>;
    const [first, second] = pipelines[0].change_queues[0].heads[0];
    expect([first.id, first.item_ahead, first.items_behind, second.item_ahead, first.project, first.url]).toEqual(['1,1', null, ['2,1'], '1,1', 'org/project', 'https://git.example.com/c/1']);
    const jobs = first.jobs as Array<Record<string, unknown>>;
    expect(jobs[0]).not.toHaveProperty('waiting_status');
    expect(jobs[0]).not.toHaveProperty('tries');
    expect(jobs[0].report_url).toBe('finger://executor/b1');
    expect(jobs[0].worker).toEqual({ name: 'Unknown', hostname: null });
    expect(document).toHaveProperty('result_event_queue');
  });
});
