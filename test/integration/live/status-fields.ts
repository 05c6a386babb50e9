/**
 * The complete status and queue-delta selections of the live tests (every field), and the
 * client side of docs/live.md#applying-changes: the dashboard's delta application
 * (web/src/status/apply-delta.ts) plus the derived fields computed as docs/live.md#times says.
 */
import { jobTimes, queueItems, type ItemFields } from '../../../src/engine/status';
import {
  applyDelta,
  chains,
  type LiveDelta,
  type LiveItem,
  type LiveModel,
  type LivePipeline,
} from '../../../web/src/status/apply-delta';

const JOB_FIELDS = /* GraphQL */ `
  name dependencies elapsedTime remainingTime url fingerUrl reportUrl result voting uuid executeTime startTime
  endTime estimatedTime pipeline canceled paused preFail retry tries queued waitingStatus waitingFor nodeLabels
  retryReason flakyRetries quarantined
`;
const REF_FIELDS = /* GraphQL */ `refs { id url ref project projectCanonical branch owner }`;
const ITEM_FIELDS = /* GraphQL */ `
  id active live itemAhead itemsBehind failingReasons zuulRef enqueueTime enqueuedAt remainingTime waitingFor
  ${REF_FIELDS} jobs { ${JOB_FIELDS} }
`;

export const PIPELINE_FIELDS = /* GraphQL */ `
  name description state manager triggers disabled consecutiveFailures triggerEvents resultEvents managementEvents
  changeQueues { key name window branch items { ${ITEM_FIELDS} } heads { ${ITEM_FIELDS} } }
`;

export const STATUS_FIELDS = /* GraphQL */ `
  tenant sequence zuulVersion lastReconfigured lastReconfiguredAt
  triggerEventQueue { length } managementEventQueue { length } resultEventQueue { length }
  state { triggerQueueDiscarding triggerQueuePaused resultQueuePaused reason }
  pipelines { ${PIPELINE_FIELDS} }
`;

/** Every change type with every field. */
export const QUEUE_EVENT_FIELDS = /* GraphQL */ `
  __typename
  ... on QueueDelta {
    sequence tenant at
    changes {
      __typename pipeline
      ... on TenantChanged { eventQueueState { triggerQueueDiscarding triggerQueuePaused resultQueuePaused reason } lastReconfigured lastReconfiguredAt }
      ... on PipelineChanged { name index description state manager triggers disabled consecutiveFailures }
      ... on QueueChanged { queue index name branch window }
      ... on QueueRemoved { queue }
      ... on ItemEnqueued { queue position item { id active live itemAhead failingReasons zuulRef enqueueTime enqueuedAt waitingFor ${REF_FIELDS} jobs { ${JOB_FIELDS} } } }
      ... on ItemMoved { queue itemId position itemAhead }
      ... on ItemDequeued { queue itemId reason { kind result by patchset message } }
      ... on ItemChanged { itemId changed active live failingReasons zuulRef enqueueTime enqueuedAt waitingFor ${REF_FIELDS} jobs { ${JOB_FIELDS} } }
      ... on JobChange { itemId changed job { ${JOB_FIELDS} } }
      ... on ItemReported { itemId result message }
      ... on BuildsetChanged { buildsetUuid result }
    }
  }
  ... on ResnapshotRequired { cause sequence }
`;

export interface PipelineView {
  name: string;
  changeQueues: Array<{ key: number; items: LiveItem[]; heads: LiveItem[][]; [field: string]: unknown }>;
  [field: string]: unknown;
}

export interface StatusView {
  sequence: number;
  pipelines: PipelineView[];
  [field: string]: unknown;
}

export interface QueueEventView {
  __typename: string;
  sequence?: number;
  tenant?: string;
  changes?: Array<{ __typename: string; [field: string]: unknown }>;
  [field: string]: unknown;
}

const TENANT_FIELDS = ['state', 'lastReconfigured', 'lastReconfiguredAt'];

/** The live model of a status snapshot (its queues' `items`; `heads` are derived). */
export function modelOf(snapshot: StatusView): LiveModel {
  const tenant = Object.fromEntries(TENANT_FIELDS.map((name) => [name, snapshot[name]]));
  return { sequence: snapshot.sequence, tenant, pipelines: snapshot.pipelines as unknown as LivePipeline[] };
}

/** Apply one `queueEvents` event (a `QueueDelta`; a `ResnapshotRequired` is not a delta). */
export function applyQueueEvent(model: LiveModel, event: QueueEventView): LiveModel {
  if (event.__typename !== 'QueueDelta' || event.sequence === undefined) {
    return model;
  }
  return applyDelta(model, event as unknown as LiveDelta);
}

/**
 * The comparable status of a model at `nowMs`: the derived fields (items behind, remaining
 * times, elapsed times, chains) computed from the stored ones, as docs/live.md#times says. The
 * pending-event counters are not part of the delta protocol and are left out.
 */
export function comparable(model: LiveModel, nowMs: number): unknown {
  return {
    ...model.tenant,
    pipelines: model.pipelines.map((pipeline) => {
      const { triggerEvents: _t, resultEvents: _r, managementEvents: _m, ...fields } = pipeline;
      return {
        ...fields,
        changeQueues: pipeline.changeQueues.map((queue) => {
          const derived = queueItems(queue.items as unknown as ItemFields[], nowMs).items;
          const items = queue.items.map((item, index) => ({
            ...item,
            itemsBehind: derived[index].itemsBehind,
            remainingTime: derived[index].remainingTime,
            jobs: (item.jobs ?? []).map((job) => ({
              ...job,
              ...jobTimes(job as unknown as Parameters<typeof jobTimes>[0], nowMs),
            })),
          }));
          return { ...queue, items, heads: chains(items) };
        }),
      };
    }),
  };
}

/** The same view of a status query result. */
export function comparableSnapshot(snapshot: StatusView): unknown {
  const model = modelOf(snapshot);
  return {
    ...model.tenant,
    pipelines: snapshot.pipelines.map((pipeline) => {
      const { triggerEvents: _t, resultEvents: _r, managementEvents: _m, ...fields } = pipeline;
      return fields;
    }),
  };
}
