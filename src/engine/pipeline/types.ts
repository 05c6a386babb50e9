/**
 * The contracts inside a pipeline's management: the pipeline as its modules see it (its
 * configuration, its state, the layout and its manager kind's strategy), and the strategy each
 * manager kind (independent, dependent, serial, supercedent; docs/gating.md#managers) implements.
 */
import type { ChangeInfo } from '../../model/changes';
import type { ItemState, PipelineState, QueueState } from '../../model/pipeline-state';
import type { PassContext } from '../pass-context';
import type { EngineLayout, EnginePipeline, EngineProject } from '../ports/layout';

/** One pipeline under management in a pass. */
export interface ManagedPipeline {
  readonly name: string;
  readonly config: EnginePipeline;
  readonly state: PipelineState;
  readonly layout: EngineLayout;
  readonly strategy: ManagerStrategy;
}

export interface AddChangeOptions {
  live: boolean;
  quiet: boolean;
  eventId: string | null;
  eventTimestamp: string | null;
  /** Images an `image-build` trigger event asks for (only their build jobs run). */
  imageNames?: string[] | null;
  /** The upload an `image-validate` trigger event asks to validate. */
  imageUploadUuid?: string | null;
  enqueueTime?: string;
  /** Changes already being enqueued in this recursion (cycle guard). */
  history?: ChangeInfo[];
  /** Admin enqueue: the pipeline's require/reject do not apply (docs/gating.md#leaving-a-pipeline). */
  ignoreRequirements?: boolean;
  forcedQueue?: QueueState;
}

export type AddChangeResult = { enqueued: true; item: ItemState | null } | { enqueued: false; reason: string };

/** How the Depends-On changes of an item ahead stand (gating pipelines wait for them). */
export type NeededChanges =
  | { state: 'met' }
  /** A needed change is neither merged nor ahead: the item leaves with this message. */
  | { state: 'missing'; message: string }
  /** A needed change ahead is failing: the item cannot succeed. */
  | { state: 'failing' };

/** Every needed change is there (one shared answer: it is only read). */
export const NEEDS_MET: NeededChanges = Object.freeze({ state: 'met' });

/** What one manager kind decides; the pipeline modules ask it instead of testing the kind. */
export interface ManagerStrategy {
  /** The queue a change enters (docs/gating.md#managers): an existing one, or a new one the caller adds. */
  changeQueue(pipeline: ManagedPipeline, change: ChangeInfo, project: EngineProject): QueueState;
  /**
   * How a Depends-On change of `change` enters `queue` ahead of it: as a live item (it must
   * share the queue, else the refusal text) or as a non-live one.
   */
  admitDependency(
    pipeline: ManagedPipeline,
    queue: QueueState,
    needed: ChangeInfo,
    change: ChangeInfo,
  ): { live: boolean } | { refused: string };
  /** After a change entered its queue: gating pipelines bring in the open changes that depend on it. */
  enqueueChangesBehind(
    pipeline: ManagedPipeline,
    ctx: PassContext,
    change: ChangeInfo,
    queue: QueueState,
    options: AddChangeOptions,
    history: ChangeInfo[],
  ): Promise<void>;
  /** Whether an item's Depends-On changes are merged or ahead of it. */
  neededChanges(
    pipeline: ManagedPipeline,
    ctx: PassContext,
    queue: QueueState,
    item: ItemState,
  ): NeededChanges | Promise<NeededChanges>;
  /** The last look before a successful item reports: why it may not merge after all (null when it may). */
  refusalBeforeMerge(pipeline: ManagedPipeline, ctx: PassContext, item: ItemState): Promise<string | null>;
  /** The queue's window after an item reported (`succeeded`: it merged; `jobsFailed`: a voting job failed). */
  windowAfterReport(queue: QueueState, outcome: { succeeded: boolean; jobsFailed: boolean }): number;
  /** A new layout: take over what the queue keeps from the pipeline's configuration. */
  reconfigureQueue(queue: QueueState, config: EnginePipeline): void;
  /** Admins may reorder the pipeline's queues (promote). */
  readonly promotable: boolean;
  /** Promote moves items inside their queues (false: only the order of the queues changes). */
  readonly promoteReordersItems: boolean;
}
