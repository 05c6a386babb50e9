/** The complete TenantStatus selection used by the live tests (every field). */
export const PIPELINE_FIELDS = /* GraphQL */ `
  name description state manager triggers disabled consecutiveFailures triggerEvents resultEvents managementEvents
  changeQueues {
    name window branch
    heads {
      id active live itemAhead itemsBehind failingReasons zuulRef enqueueTime enqueuedAt remainingTime waitingFor
      refs { id url ref project projectCanonical owner }
      jobs {
        name dependencies elapsedTime remainingTime url fingerUrl reportUrl result voting uuid executeTime startTime
        endTime estimatedTime pipeline canceled paused preFail retry tries queued waitingStatus waitingFor nodeLabels
      }
    }
  }
`;

export const STATUS_FIELDS = /* GraphQL */ `
  tenant sequence zuulVersion lastReconfigured lastReconfiguredAt
  triggerEventQueue { length } managementEventQueue { length } resultEventQueue { length }
  state { triggerQueueDiscarding triggerQueuePaused resultQueuePaused reason }
  pipelines { ${PIPELINE_FIELDS} }
`;

export const QUEUE_EVENT_FIELDS = /* GraphQL */ `
  __typename
  ... on QueueEvent { sequence tenant at pipeline pipelineStatus { ${PIPELINE_FIELDS} } }
  ... on ItemEnqueued { itemId queueName changeIds live }
  ... on ItemDequeued { itemId reason { kind result by } }
  ... on ItemReported { itemId result }
  ... on JobStarted { job buildUuid }
  ... on JobCompleted { job result }
  ... on TenantStateChanged { state { triggerQueuePaused reason } }
  ... on ResnapshotRequired { cause sequence }
`;

export interface PipelineView {
  name: string;
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
  pipelineStatus?: PipelineView | null;
  [field: string]: unknown;
}

/** Apply a delta to a snapshot the way docs/live.md tells clients to: replace the pipeline. */
export function applyQueueEvent(snapshot: StatusView, event: QueueEventView): StatusView {
  const pipeline = event.pipelineStatus;
  if (!pipeline || event.sequence === undefined || event.sequence <= snapshot.sequence) {
    return snapshot;
  }
  return {
    ...snapshot,
    sequence: event.sequence,
    pipelines: snapshot.pipelines.map((candidate) => (candidate.name === pipeline.name ? pipeline : candidate)),
  };
}
