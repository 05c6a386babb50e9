/**
 * The tenant status document in both REST shapes (docs/rest.md#status-document current,
 * docs/rest.md#earlier-status-document earlier): JSON schemas for the OpenAPI document and the mappers from the GraphQL
 * `TenantStatus`.
 */
import type { RestStatusItemFieldsFragment, RestStatusJobFieldsFragment, RestStatusQuery } from '../generated/graphql';
import { arrayOf, bool, int, nullable, num, object, str } from '../json-schema';

type TenantResult = NonNullable<RestStatusQuery['tenant']>;
type StatusResult = NonNullable<Extract<TenantResult, { __typename: 'Tenant' }>['status']>;
export type StatusData = Extract<StatusResult, { __typename: 'TenantStatus' }>;
type Pipeline = StatusData['pipelines'][number];
type Item = RestStatusItemFieldsFragment;
type Job = RestStatusJobFieldsFragment;

const queueLength = object({ length: int() });
const nullableStr = nullable(str());
const nullableNum = nullable(num());
const nullableBool = nullable(bool());

const commonJobFields = {
  name: str(),
  dependencies: arrayOf(str()),
  elapsed_time: nullable(num('Milliseconds')),
  remaining_time: nullable(num('Milliseconds')),
  url: nullableStr,
  finger_url: nullableStr,
  report_url: nullableStr,
  result: nullableStr,
  voting: bool(),
  uuid: nullableStr,
  execute_time: nullable(num('Epoch seconds')),
  start_time: nullable(num('Epoch seconds')),
  end_time: nullable(num('Epoch seconds')),
  estimated_time: nullable(num('Seconds')),
  pipeline: nullableStr,
  canceled: nullableBool,
  paused: nullableBool,
  retry: nullableBool,
};

const currentJobSchema = object({
  ...commonJobFields,
  pre_fail: nullableBool,
  tries: int(),
  queued: bool(),
  waiting_status: nullableStr,
});
const integerOrNull = (description: string) => nullable(int(description));

/**
 * The REST specification's earlier StatusJob (authoritative, docs/rest.md#the-shape-rule) filled in with the other
 * fields of docs/rest.md#earlier-status-document.
 */
const earlierJobSchema = object({
  ...commonJobFields,
  elapsed_time: integerOrNull('Milliseconds'),
  remaining_time: integerOrNull('Milliseconds'),
  start_time: integerOrNull('Epoch seconds'),
  launch_time: integerOrNull('Epoch seconds when the build was requested'),
  number: integerOrNull('Attempt number of the build'),
  retry: integerOrNull('1 when the build will be retried, else 0; null without a build'),
  node_labels: arrayOf(str()),
  node_name: nullableStr,
  worker: nullable(
    object(
      { name: str(), hostname: nullableStr, fqdn: nullableStr, program: str(), version: str(), ips: arrayOf(str()) },
      {},
      'Executor of the build, from its finger URL',
    ),
  ),
});

/** One status item of the current shape (also the records of `status/change/{change}`). */
export const currentItemSchema = object({
  active: bool(),
  live: bool(),
  refs: arrayOf(
    object({
      url: nullableStr,
      ref: nullableStr,
      project: str(),
      project_canonical: str(),
      owner: nullableStr,
      id: str(),
    }),
  ),
  id: str('Item uuid'),
  item_ahead: nullableStr,
  items_behind: arrayOf(str()),
  failing_reasons: arrayOf(str()),
  zuul_ref: nullableStr,
  enqueue_time: num('Epoch milliseconds'),
  jobs: arrayOf(currentJobSchema),
  remaining_time: nullableNum,
});

const earlierItemSchema = object({
  active: bool(),
  live: bool(),
  url: nullableStr,
  ref: nullableStr,
  id: str('Change id (`N,P` or new revision)'),
  item_ahead: nullable(str('Change id of the item ahead')),
  items_behind: arrayOf(str('Change ids')),
  failing_reasons: arrayOf(str()),
  zuul_ref: str(),
  ci_ref: str('Same as zuul_ref'),
  project: str(),
  project_canonical: str(),
  enqueue_time: int('Epoch milliseconds'),
  owner: nullableStr,
  jobs: arrayOf(earlierJobSchema),
  remaining_time: integerOrNull('Milliseconds'),
});

const stateSchema = object({
  trigger_queue_discarding: bool(),
  trigger_queue_paused: bool(),
  result_queue_paused: bool(),
  reason: nullableStr,
});

/**
 * `GET T/state` and the `state` key of the current status document
 * (docs/rest.md#deliberate-differences-from-the-reference, docs/rest.md#tenant-event-queue-state).
 */
export const tenantStateSchema = stateSchema;

export const currentStatusSchema = object({
  zuul_version: str(),
  trigger_event_queue: queueLength,
  state: stateSchema,
  management_event_queue: queueLength,
  connection_event_queues: {
    type: 'object',
    additionalProperties: queueLength,
    description: 'Per connection event queue; Sluice keeps none',
  },
  last_reconfigured: nullable(num('Epoch milliseconds')),
  pipelines: arrayOf(
    object({
      name: str(),
      description: nullableStr,
      state: str('normal or error'),
      manager: str('dependent, independent, serial or supercedent'),
      triggers: arrayOf(object({ driver: str() })),
      change_queues: arrayOf(
        object({ name: str(), window: int(), branch: nullableStr, heads: arrayOf(arrayOf(currentItemSchema)) }),
      ),
      trigger_events: int(),
      result_events: int(),
      management_events: int(),
    }),
  ),
});

export const earlierStatusSchema = {
  anyOf: [
    object(
      {
        zuul_version: str(),
        ci_version: str('Same as zuul_version'),
        trigger_event_queue: int('Pending trigger events (an integer in the earlier shape)'),
        result_event_queue: queueLength,
        management_event_queue: queueLength,
        pipelines: arrayOf(
          object({
            name: str(),
            description: nullableStr,
            change_queues: arrayOf(object({ name: str(), window: int(), heads: arrayOf(arrayOf(earlierItemSchema)) })),
          }),
        ),
      },
      { last_reconfigured: int('Epoch milliseconds; absent before the first configuration') },
    ),
    object({ message: str(), code: int() }, {}, 'The tenant is not loaded yet'),
  ],
};

function currentJob(job: Job): Record<string, unknown> {
  return {
    name: job.name,
    dependencies: job.dependencies,
    elapsed_time: job.elapsedTime,
    remaining_time: job.remainingTime,
    url: job.url,
    finger_url: job.fingerUrl,
    report_url: job.reportUrl,
    result: job.result,
    voting: job.voting,
    uuid: job.uuid,
    execute_time: job.executeTime,
    start_time: job.startTime,
    end_time: job.endTime,
    estimated_time: job.estimatedTime,
    pipeline: job.pipeline,
    canceled: job.canceled,
    paused: job.paused,
    pre_fail: job.preFail,
    retry: job.retry,
    tries: job.tries,
    queued: job.queued,
    waiting_status: job.waitingStatus,
  };
}

const roundOrNull = (value: number | null): number | null => (value === null ? null : Math.round(value));

/** The executor host named by a `finger://host/uuid` URL. */
function fingerHost(fingerUrl: string | null): string | null {
  const match = fingerUrl === null ? null : /^finger:\/\/([^/]+)\//.exec(fingerUrl);
  return match?.[1] ?? null;
}

/**
 * docs/rest.md#earlier-status-document with the REST specification's integer types (docs/rest.md#the-shape-rule): the
 * finger URL stands in for the report URL; the worker is the executor host of the finger URL (`Unknown` when there is
 * none).
 */
function earlierJob(job: Job, version: string): Record<string, unknown> {
  const { pre_fail: _preFail, tries: _tries, queued: _queued, waiting_status: _waiting, ...common } = currentJob(job);
  const started = job.uuid !== null;
  const host = fingerHost(job.fingerUrl);
  return {
    ...common,
    elapsed_time: roundOrNull(job.elapsedTime),
    remaining_time: roundOrNull(job.remainingTime),
    start_time: roundOrNull(job.startTime),
    launch_time: roundOrNull(job.executeTime),
    number: started ? job.tries : null,
    retry: job.retry === null ? null : Number(job.retry),
    report_url: job.fingerUrl ?? job.reportUrl,
    node_labels: started ? job.nodeLabels : [],
    node_name: null,
    worker: started
      ? {
          name: host?.split('.')[0] ?? 'Unknown',
          hostname: host,
          fqdn: host,
          program: 'sluice-executor',
          version,
          ips: [],
        }
      : null,
  };
}

/** One item of the current shape (docs/rest.md#status-document). */
export function currentItem(item: Item): Record<string, unknown> {
  return {
    active: item.active,
    live: item.live,
    refs: item.refs.map((ref) => ({
      url: ref.url,
      ref: ref.ref,
      project: ref.project,
      project_canonical: ref.projectCanonical,
      owner: ref.owner,
      id: ref.id,
    })),
    id: item.id,
    item_ahead: item.itemAhead,
    items_behind: item.itemsBehind,
    failing_reasons: item.failingReasons,
    zuul_ref: item.zuulRef,
    enqueue_time: item.enqueueTime,
    jobs: item.jobs.map(currentJob),
    remaining_time: item.remainingTime,
  };
}

/** One item of the earlier shape: one change per item, links by change id (docs/rest.md#earlier-status-document). */
function earlierItem(item: Item, changeIdOf: Map<string, string>, version: string): Record<string, unknown> {
  const ref = item.refs.at(0);
  const zuulRef = item.zuulRef ?? `Z${item.id}`;
  return {
    active: item.active,
    live: item.live,
    url: ref?.url ?? null,
    ref: ref?.ref ?? null,
    id: ref?.id ?? item.id,
    item_ahead: item.itemAhead === null ? null : (changeIdOf.get(item.itemAhead) ?? null),
    items_behind: item.itemsBehind.map((uuid) => changeIdOf.get(uuid) ?? uuid),
    failing_reasons: item.failingReasons,
    zuul_ref: zuulRef,
    ci_ref: zuulRef,
    project: ref?.project ?? 'Unknown Project',
    project_canonical: ref?.projectCanonical ?? 'Unknown Project',
    enqueue_time: Math.round(item.enqueueTime),
    owner: ref?.owner ?? null,
    jobs: item.jobs.map((job) => earlierJob(job, version)),
    remaining_time: roundOrNull(item.remainingTime),
  };
}

/** `GET T/state` body, also the `state` of the current status document. */
export function tenantState(state: StatusData['state']): Record<string, unknown> {
  return {
    trigger_queue_discarding: state.triggerQueueDiscarding,
    trigger_queue_paused: state.triggerQueuePaused,
    result_queue_paused: state.resultQueuePaused,
    reason: state.reason,
  };
}

/** The current status document (docs/rest.md#status-document): only non-empty queues, items with `refs`. */
export function currentStatus(status: StatusData): Record<string, unknown> {
  return {
    zuul_version: status.zuulVersion,
    trigger_event_queue: { length: status.triggerEventQueue.length },
    state: tenantState(status.state),
    management_event_queue: { length: status.managementEventQueue.length },
    // Sluice has no per-connection event queues (events go straight to the tenant queue).
    connection_event_queues: {},
    last_reconfigured: status.lastReconfigured,
    pipelines: status.pipelines.map((pipeline: Pipeline) => ({
      name: pipeline.name,
      description: pipeline.description,
      state: pipeline.state.toLowerCase(),
      manager: pipeline.manager.toLowerCase(),
      triggers: pipeline.triggers.map((driver) => ({ driver })),
      change_queues: pipeline.changeQueues
        .filter((queue) => queue.heads.length > 0)
        .map((queue) => ({
          name: queue.name,
          window: queue.window,
          branch: queue.branch,
          heads: queue.heads.map((chain) => chain.map(currentItem)),
        })),
      trigger_events: pipeline.triggerEvents,
      result_events: pipeline.resultEvents,
      management_events: pipeline.managementEvents,
    })),
  };
}

/**
 * The earlier status document: docs/rest.md#earlier-status-document (every queue, per-change items, no tenant state)
 * with the fields and types of the REST specification's earlier tables, which are authoritative
 * (docs/rest.md#the-shape-rule): `ci_version`, integer `trigger_event_queue`, `ci_ref`, jobs with `number`,
 * `launch_time`, `worker`.
 */
export function earlierStatus(status: StatusData): Record<string, unknown> {
  return {
    zuul_version: status.zuulVersion,
    ci_version: status.zuulVersion,
    trigger_event_queue: status.triggerEventQueue.length,
    result_event_queue: { length: status.resultEventQueue.length },
    management_event_queue: { length: status.managementEventQueue.length },
    ...(status.lastReconfigured === null ? {} : { last_reconfigured: Math.round(status.lastReconfigured) }),
    pipelines: status.pipelines.map((pipeline: Pipeline) => ({
      name: pipeline.name,
      description: pipeline.description,
      change_queues: pipeline.changeQueues.map((queue) => {
        const changeIdOf = new Map(queue.heads.flat().map((item) => [item.id, item.refs.at(0)?.id ?? item.id]));
        return {
          name: queue.name,
          window: queue.window,
          heads: queue.heads.map((chain) => chain.map((item) => earlierItem(item, changeIdOf, status.zuulVersion))),
        };
      }),
    })),
  };
}
