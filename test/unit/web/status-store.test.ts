/**
 * The dashboard's status data layer (web/src/status/status-store.ts, apply-delta.ts): a queue
 * delta changes only the items it names, so the page's memoized rows re-render only those,
 * even on a 500-item status; positions, chains and stale deltas behave as docs/live.md says.
 */
import { applyStatusDelta, type ItemStatus, type StatusView } from '../../../web/src/status/status-store';
import type { LiveDelta } from '../../../web/src/status/apply-delta';
import { NO_ESTIMATES, estimateKeys, estimateTable } from '../../../web/src/status/estimates';

function item(n: number, result: string | null = null): ItemStatus {
  return {
    id: `item-${n}`,
    active: true,
    live: true,
    itemAhead: n > 0 ? `item-${n - 1}` : null,
    enqueueTime: 1_700_000_000_000 + n,
    failingReasons: [],
    waitingFor: null,
    zuulRef: null,
    refs: [
      {
        id: `${n},1`,
        project: 'org/project',
        projectCanonical: 'git.example.com/org/project',
        branch: n % 2 === 0 ? 'master' : 'stable',
        ref: null,
        url: null,
        owner: null,
      },
    ],
    jobs: [
      {
        name: 'unit',
        dependencies: [],
        uuid: `uuid-${n}`,
        result,
        queued: false,
        voting: true,
        retry: null,
        tries: 1,
        paused: null,
        canceled: null,
        preFail: null,
        startTime: null,
        endTime: null,
        estimatedTime: null,
        waitingStatus: null,
        url: null,
        reportUrl: null,
        retryReason: null,
        flakyRetries: 0,
        quarantined: false,
      },
    ],
  };
}

function view(): StatusView {
  const items = Array.from({ length: 500 }, (_, n) => item(n));
  const pipeline = (name: string, key: number, queueItems: ItemStatus[]) => ({
    name,
    description: null,
    manager: 'DEPENDENT' as const,
    state: 'NORMAL' as const,
    disabled: false,
    consecutiveFailures: 0,
    changeQueues: [{ key, name: 'q', branch: null, window: 20, items: queueItems, heads: [queueItems] }],
  });
  return {
    sequence: 10,
    pipelines: [pipeline('check', 2, [item(1000)]), pipeline('gate', 1, items)],
    state: null,
    eventQueues: { trigger: 0, management: 0, result: 0 },
    lastReconfiguredAt: null,
    estimates: NO_ESTIMATES,
    live: true,
    error: null,
  };
}

const delta = (sequence: number, ...changes: LiveDelta['changes']): LiveDelta => ({ sequence, changes });

describe('status store', () => {
  it('keeps every unchanged item of a 500-item pipeline when one job completes', () => {
    const before = view();
    const job = { ...item(250).jobs[0], result: 'SUCCESS' };
    const applied = applyStatusDelta(
      before,
      delta(11, { __typename: 'JobCompleted', pipeline: 'gate', itemId: 'item-250', job }),
    );
    expect(applied.sequence).toBe(11);
    expect(applied.pipelines[0]).toBe(before.pipelines[0]); // another pipeline keeps its identity
    const items = applied.pipelines[1].changeQueues[0].items;
    const old = before.pipelines[1].changeQueues[0].items;
    expect(items.filter((candidate, n) => candidate === old[n])).toHaveLength(499);
    expect(items[250].jobs[0].result).toBe('SUCCESS');
    expect(applied.pipelines[1].changeQueues[0].heads).toEqual([items]);
  });

  it('skips deltas the view already reflects, and leaves it alone for notices', () => {
    const before = view();
    expect(applyStatusDelta(before, delta(10, { __typename: 'ItemDequeued', queue: 1, itemId: 'item-0' }))).toBe(
      before,
    );
    const noticed = applyStatusDelta(
      before,
      delta(11, { __typename: 'ItemReported', pipeline: 'gate', itemId: 'item-0', result: 'SUCCESS' }),
    );
    expect(noticed.pipelines).toEqual(before.pipelines);
    expect(noticed.pipelines[1]).toBe(before.pipelines[1]);
  });

  it('follows items leaving, moving and joining a queue by position, and chains them', () => {
    const before = view();
    const applied = applyStatusDelta(
      before,
      delta(
        11,
        { __typename: 'ItemDequeued', pipeline: 'gate', queue: 1, itemId: 'item-0' },
        { __typename: 'ItemMoved', pipeline: 'gate', queue: 1, itemId: 'item-1', position: 0, itemAhead: null },
        { __typename: 'ItemMoved', pipeline: 'gate', queue: 1, itemId: 'item-7', position: 498, itemAhead: null },
        { __typename: 'ItemEnqueued', pipeline: 'gate', queue: 1, position: 499, item: item(500) },
      ),
    );
    const queue = applied.pipelines[1].changeQueues[0];
    expect(queue.items).toHaveLength(500);
    expect(queue.items.map((candidate) => candidate.id).slice(0, 3)).toEqual(['item-1', 'item-2', 'item-3']);
    expect(queue.items.map((candidate) => candidate.id).slice(-2)).toEqual(['item-7', 'item-500']);
    expect(queue.items[0].itemAhead).toBeNull();
    // item-7 went last with no item ahead: a chain of its own; item-8, whose item ahead is now
    // behind it, starts the next chain, which item-500 joins.
    expect(queue.heads.map((chain) => chain.length)).toEqual([6, 493, 1]);
    expect(queue.heads[2][0].id).toBe('item-7');
  });

  it('takes the event-queue state and new queues and pipelines from tenant, queue and pipeline changes', () => {
    const state = {
      reason: 'upgrade',
      triggerQueuePaused: true,
      triggerQueueDiscarding: false,
      resultQueuePaused: false,
    };
    const applied = applyStatusDelta(
      view(),
      delta(
        11,
        { __typename: 'TenantChanged', pipeline: null, eventQueueState: state },
        { __typename: 'PipelineChanged', pipeline: 'post', name: 'post', index: 0, state: 'NORMAL', manager: 'SERIAL' },
        { __typename: 'QueueChanged', pipeline: 'post', queue: 9, index: 0, name: 'p', branch: null, window: 0 },
        { __typename: 'QueueRemoved', pipeline: 'check', queue: 2 },
      ),
    );
    expect(applied.state).toEqual(state);
    expect(applied.pipelines.map((pipeline) => pipeline.name)).toEqual(['post', 'check', 'gate']);
    expect(applied.pipelines[0].changeQueues).toEqual([
      { key: 9, name: 'p', branch: null, window: 0, items: [], heads: [] },
    ]);
    expect(applied.pipelines[1].changeQueues).toEqual([]);
  });

  it('asks for the estimates of every job and item once, and reads them back as the model has them', () => {
    const keys = estimateKeys(view().pipelines);
    const project = 'git.example.com/org/project';
    expect(keys).toEqual([
      { kind: 'ITEM', project, branch: null, name: 'check' },
      { kind: 'JOB', project, branch: 'master', name: 'unit' },
      { kind: 'ITEM', project, branch: null, name: 'gate' },
      { kind: 'JOB', project, branch: 'stable', name: 'unit' },
    ]);
    const estimate = {
      basis: 'ITEM_PROJECT' as const,
      runs: 3,
      successes: 2,
      failures: 1,
      quantiles: [1, 2],
      failureQuantiles: null,
      failureProbability: 1 / 3,
      retryProbability: 0,
    };
    const table = estimateTable([{ kind: 'ITEM', project, branch: null, name: 'gate', estimate }]);
    expect(table.get(`ITEM\n${project}\n\ngate`)).toEqual({
      basis: 'item-project',
      runs: 3,
      successes: 2,
      failures: 1,
      success: [1, 2],
      failure: null,
      failureProbability: 1 / 3,
      retryProbability: 0,
    });
  });
});
