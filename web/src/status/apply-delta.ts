/**
 * Applying `queueEvents` deltas to a status snapshot (docs/live.md#applying-changes), for any
 * selection of fields: each change sets the fields it carries. The model is the snapshot's
 * shape with every queue's `items` in queue order; `chains` splits a queue into the `heads` the
 * status shows. Unchanged pipelines, queues and items keep their object identity, so views
 * memoized on them re-render only what a delta changed.
 */

type Fields = Record<string, unknown>;

export interface LiveJob extends Fields {
  name: string;
}

export interface LiveItem extends Fields {
  id: string;
  itemAhead?: string | null;
  jobs?: readonly LiveJob[];
}

export interface LiveQueue extends Fields {
  key: number;
  items: readonly LiveItem[];
}

export interface LivePipeline extends Fields {
  name: string;
  changeQueues: readonly LiveQueue[];
}

export interface LiveModel {
  /** Sequence of the snapshot or of the last delta applied. */
  sequence: number;
  /** Tenant-level fields (`state`, `lastReconfigured`...) as selected. */
  tenant: Fields;
  pipelines: readonly LivePipeline[];
}

export interface DeltaChange extends Fields {
  __typename: string;
}

export interface LiveDelta {
  sequence: number;
  changes: readonly DeltaChange[];
}

/** Fields of a change that address what it changes rather than set a value. */
const ADDRESSING = new Set([
  '__typename',
  'pipeline',
  'queue',
  'index',
  'position',
  'itemId',
  'changed',
  'item',
  'job',
]);

function valuesOf(change: Fields): Fields {
  const values: Fields = {};
  for (const [name, value] of Object.entries(change)) {
    if (!ADDRESSING.has(name)) {
      values[name] = value;
    }
  }
  return values;
}

function insertAt<T>(list: readonly T[], index: number, value: T): T[] {
  const copy = [...list];
  copy.splice(Math.min(Math.max(index, 0), copy.length), 0, value);
  return copy;
}

/** One delta applied to a working copy; only objects it creates are changed in place. */
class Draft {
  pipelines: LivePipeline[];
  tenant: Fields;
  private readonly fresh = new Set<object>();

  constructor(model: LiveModel) {
    this.pipelines = [...model.pipelines];
    this.tenant = model.tenant;
  }

  private pipelineIndex(name: unknown): number {
    return this.pipelines.findIndex((pipeline) => pipeline.name === name);
  }

  /** The pipeline, made writable. */
  private pipeline(name: unknown): LivePipeline | undefined {
    const index = this.pipelineIndex(name);
    if (index < 0) {
      return undefined;
    }
    let pipeline = this.pipelines[index];
    if (!this.fresh.has(pipeline)) {
      pipeline = { ...pipeline, changeQueues: [...pipeline.changeQueues] };
      this.fresh.add(pipeline);
      this.pipelines[index] = pipeline;
    }
    return pipeline;
  }

  /** The queue with this key (in any pipeline), made writable with its pipeline. */
  private queue(key: unknown): LiveQueue | undefined {
    const owner = this.pipelines.find((pipeline) => pipeline.changeQueues.some((queue) => queue.key === key));
    const pipeline = owner && this.pipeline(owner.name);
    if (!pipeline) {
      return undefined;
    }
    const queues = pipeline.changeQueues as LiveQueue[];
    const index = queues.findIndex((queue) => queue.key === key);
    let queue = queues[index];
    if (!this.fresh.has(queue)) {
      queue = { ...queue, items: [...queue.items] };
      this.fresh.add(queue);
      queues[index] = queue;
    }
    return queue;
  }

  /** Take an item out of whichever queue holds it. */
  private take(id: unknown): LiveItem | undefined {
    for (const pipeline of this.pipelines) {
      for (const candidate of pipeline.changeQueues) {
        const index = candidate.items.findIndex((item) => item.id === id);
        if (index >= 0) {
          const queue = this.queue(candidate.key) as LiveQueue;
          const [item] = (queue.items as LiveItem[]).splice(index, 1);
          return item;
        }
      }
    }
    return undefined;
  }

  /** Change an item in place (a writable copy replaces it). */
  private update(id: unknown, change: (item: LiveItem) => LiveItem): void {
    for (const pipeline of this.pipelines) {
      for (const candidate of pipeline.changeQueues) {
        const index = candidate.items.findIndex((item) => item.id === id);
        if (index >= 0) {
          const queue = this.queue(candidate.key) as LiveQueue;
          (queue.items as LiveItem[])[index] = change(queue.items[index]);
          return;
        }
      }
    }
  }

  apply(change: DeltaChange): void {
    switch (change.__typename) {
      case 'TenantChanged': {
        // The event-queue state is the status's `state` (a change cannot name it so: PipelineChanged has a `state`).
        const { eventQueueState, ...values } = valuesOf(change);
        this.tenant = {
          ...this.tenant,
          ...values,
          ...(eventQueueState === undefined ? {} : { state: eventQueueState }),
        };
        return;
      }
      case 'PipelineChanged': {
        const name = change.name ?? change.pipeline;
        const index = this.pipelineIndex(name);
        const existing = index >= 0 ? this.pipelines.splice(index, 1)[0] : undefined;
        const pipeline: LivePipeline = {
          ...existing,
          ...valuesOf(change),
          name: String(name),
          changeQueues: existing?.changeQueues ?? [],
        };
        this.fresh.add(pipeline);
        this.pipelines = insertAt(this.pipelines, Number(change.index), pipeline);
        return;
      }
      case 'PipelineRemoved': {
        const index = this.pipelineIndex(change.pipeline);
        if (index >= 0) {
          this.pipelines.splice(index, 1);
        }
        return;
      }
      case 'QueueChanged': {
        const pipeline = this.pipeline(change.pipeline);
        if (!pipeline) {
          return;
        }
        const queues = pipeline.changeQueues as LiveQueue[];
        const index = queues.findIndex((queue) => queue.key === change.queue);
        const existing = index >= 0 ? queues.splice(index, 1)[0] : undefined;
        const queue: LiveQueue = {
          ...existing,
          ...valuesOf(change),
          key: Number(change.queue),
          items: existing?.items ?? [],
        };
        pipeline.changeQueues = insertAt(queues, Number(change.index), queue);
        return;
      }
      case 'QueueRemoved': {
        const pipeline = this.pipeline(change.pipeline);
        if (pipeline) {
          pipeline.changeQueues = pipeline.changeQueues.filter((queue) => queue.key !== change.queue);
        }
        return;
      }
      case 'ItemEnqueued':
      case 'ItemMoved': {
        const enqueued = change.__typename === 'ItemEnqueued' ? (change.item as LiveItem) : undefined;
        const taken = this.take(enqueued ? enqueued.id : change.itemId);
        const item =
          enqueued ??
          (taken && 'itemAhead' in change ? { ...taken, itemAhead: change.itemAhead as string | null } : taken);
        const queue = this.queue(change.queue);
        if (item && queue) {
          queue.items = insertAt(queue.items, Number(change.position), item);
        }
        return;
      }
      case 'ItemDequeued':
        this.take(change.itemId);
        return;
      case 'ItemChanged': {
        const values = valuesOf(change);
        if (values.jobs === null) {
          delete values.jobs; // the list of jobs did not change
        }
        this.update(change.itemId, (item) => ({ ...item, ...values }));
        return;
      }
      default:
        if (change.job && typeof change.job === 'object') {
          const job = change.job as LiveJob;
          this.update(change.itemId, (item) => ({
            ...item,
            jobs: (item.jobs ?? []).map((candidate) =>
              candidate.name === job.name ? { ...candidate, ...job } : candidate,
            ),
          }));
        }
      // ItemReported, BuildsetChanged: notices, nothing to apply.
    }
  }
}

/**
 * The model after a delta. A delta whose sequence is not higher than the model's is already
 * reflected and changes nothing (the same object comes back).
 */
export function applyDelta(model: LiveModel, delta: LiveDelta): LiveModel {
  if (delta.sequence <= model.sequence) {
    return model;
  }
  const draft = new Draft(model);
  for (const change of delta.changes) {
    draft.apply(change);
  }
  return { sequence: delta.sequence, tenant: draft.tenant, pipelines: draft.pipelines };
}

const chainsOf = new WeakMap<readonly LiveItem[], LiveItem[][]>();

/**
 * A queue's items split into chains, as the status's `heads`: a chain starts at each item
 * whose item ahead is not before it in the queue; the others join the chain of their item
 * ahead (docs/live.md#applying-changes). Memoized per items array.
 */
export function chains<T extends LiveItem>(items: readonly T[]): T[][] {
  const cached = chainsOf.get(items);
  if (cached) {
    return cached as T[][];
  }
  const result: T[][] = [];
  const chainOf = new Map<string, T[]>();
  for (const item of items) {
    const ahead = item.itemAhead ?? null;
    let chain = ahead === null ? undefined : chainOf.get(ahead);
    if (!chain) {
      chain = [];
      result.push(chain);
    }
    chain.push(item);
    chainOf.set(item.id, chain);
  }
  chainsOf.set(items, result);
  return result;
}
