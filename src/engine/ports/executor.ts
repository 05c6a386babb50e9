/** The executor port: submitting, canceling and resuming builds (results come back as result events). */
import type { ChangeInfo, MergeItem } from '../../model/changes';
import type { ArtifactInfo, EngineJob, NodeInfo } from '../../model/pipeline-state';

/** Everything an executor needs to run one build. */
export interface BuildParams {
  tenant: string;
  pipeline: string;
  buildUuid: string;
  buildsetUuid: string;
  itemUuid: string;
  job: EngineJob;
  /** Attempt number, from 1. */
  attempt: number;
  precedence: number;
  changes: ChangeInfo[];
  /** The speculative merge: items ahead then the item itself. */
  mergeItems: MergeItem[];
  /** The repository state the speculative merge prepared (pinned: the executor merges onto it). */
  repoState?: Record<string, unknown> | null;
  /** Result data of the transitive dependencies (`zuul` keys removed). */
  parentData: Record<string, unknown>;
  artifacts: ArtifactInfo[];
  nodes: NodeInfo[];
  timeout: number | null;
  /** The jobs whose dependencies name this one (`zuul.child_jobs`). */
  childJobs?: string[];
  /** The triggering event's id (`zuul.event_id`). */
  eventId?: string | null;
  /** The pipeline's `post-review` (`zuul.post_review`). */
  postReview?: boolean;
}

export interface ExecutorGateway {
  /** Submit a build. Idempotent by build uuid (called again after a restart for builds without a result). */
  startBuild(params: BuildParams): Promise<void>;
  /**
   * Submit the builds a pass started one after another, as `startBuild` each in turn does; absent:
   * `startBuild` is called for each (docs/gating.md#performance).
   */
  startBuilds?(params: readonly BuildParams[]): Promise<void>;
  /** Stop a build; a completed-event may still arrive and is then ignored. */
  cancelBuild(tenant: string, buildUuid: string): Promise<void>;
  /**
   * Let a paused build continue (its post-run steps run, then it completes). Idempotent: asking
   * again, or for a build that is no longer paused, changes nothing.
   */
  resumeBuild(tenant: string, buildUuid: string): Promise<void>;
}
