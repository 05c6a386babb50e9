/**
 * The dashboard's status data layer (web/src/status/status-store.ts): applying a queue delta keeps
 * the objects of unchanged items, so the page's memoized rows re-render only the items a delta
 * changed, even on a 500-item status.
 */
import {
  applyDelta,
  reconcilePipeline,
  type PipelineStatus,
  type StatusView,
} from '../../../web/src/status/status-store';

type Item = PipelineStatus['changeQueues'][number]['heads'][number][number];

function item(n: number, result: string | null = null): Item {
  return {
    id: `item-${n}`,
    active: true,
    live: true,
    itemAhead: n > 0 ? `item-${n - 1}` : null,
    itemsBehind: [],
    enqueueTime: 1_700_000_000_000 + n,
    failingReasons: [],
    remainingTime: null,
    waitingFor: null,
    zuulRef: null,
    refs: [{ id: `${n},1`, project: 'org/project', ref: null, url: null, owner: null }],
    jobs: [
      {
        name: 'unit',
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
        estimatedTime: null,
        elapsedTime: null,
        remainingTime: null,
        waitingStatus: null,
        url: null,
        reportUrl: null,
      },
    ],
  };
}

function pipeline(name: string, items: Item[]): PipelineStatus {
  return {
    name,
    description: null,
    manager: 'DEPENDENT',
    state: 'NORMAL',
    disabled: false,
    consecutiveFailures: 0,
    triggerEvents: 0,
    managementEvents: 0,
    resultEvents: 0,
    changeQueues: [{ name: 'q', branch: null, window: 20, heads: [items] }],
  };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('status store', () => {
  const items = Array.from({ length: 500 }, (_, n) => item(n));
  const gate = pipeline('gate', items);
  const check = pipeline('check', [item(1000)]);
  const view: StatusView = {
    sequence: 10,
    pipelines: [check, gate],
    state: null,
    eventQueues: { trigger: 0, management: 0, result: 0 },
    lastReconfiguredAt: null,
    live: true,
    error: null,
  };

  it('keeps every unchanged item of a 500-item pipeline when one job completes', () => {
    const next = clone(gate);
    next.changeQueues[0].heads[0][250] = item(250, 'SUCCESS');
    const applied = applyDelta(view, {
      __typename: 'JobCompleted',
      sequence: 11,
      pipeline: 'gate',
      pipelineStatus: next,
    } as Parameters<typeof applyDelta>[1]);
    expect(applied.sequence).toBe(11);
    expect(applied.pipelines[0]).toBe(check); // another pipeline keeps its identity
    const heads = applied.pipelines[1].changeQueues[0].heads[0];
    const reused = heads.filter((candidate, n) => candidate === items[n]).length;
    expect(reused).toBe(499);
    expect(heads[250]).not.toBe(items[250]);
    expect(heads[250].jobs[0].result).toBe('SUCCESS');
  });

  it('returns the same pipeline when a delta changed nothing in it, and skips old deltas', () => {
    expect(reconcilePipeline(gate, clone(gate))).toBe(gate);
    const stale = applyDelta(view, {
      __typename: 'JobCompleted',
      sequence: 10,
      pipeline: 'gate',
      pipelineStatus: pipeline('gate', []),
    } as Parameters<typeof applyDelta>[1]);
    expect(stale).toBe(view);
  });

  it('follows items leaving and joining a queue', () => {
    const next = clone(gate);
    next.changeQueues[0].heads[0] = [...next.changeQueues[0].heads[0].slice(1), item(500)];
    const reconciled = reconcilePipeline(gate, next);
    const heads = reconciled.changeQueues[0].heads[0];
    expect(heads).toHaveLength(500);
    expect(heads[0]).toBe(items[1]);
    expect(heads[499].id).toBe('item-500');
  });
});
