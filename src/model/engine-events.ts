/**
 * Engine events: durable rows of `engine_events` in three categories (trigger, management,
 * result) that the tenant's scheduler handles in order.
 */
import type { NodeInfo } from './pipeline-state';
import type { BuildResult } from './results';

export type ResultEvent =
  | { type: 'build-started'; buildUuid: string; startTime: string; logUrl?: string | null }
  | {
      type: 'build-completed';
      buildUuid: string;
      /** null, ABORTED (or a build-level MERGE_CONFLICT) are retried while attempts remain. */
      result: BuildResult | null;
      endTime: string;
      errorDetail?: string | null;
      logUrl?: string | null;
      artifacts?: Array<{ name: string; url: string; metadata?: Record<string, unknown> | null }>;
      /** Result data returned by the job (passed to dependent jobs). */
      data?: Record<string, unknown>;
      /** `child_jobs` returned by the job: null when absent, else the dependents to keep. */
      childJobs?: string[] | null;
    }
  | {
      /** The run phase succeeded and asked to pause (`zuul.pause`): the build waits for its dependents (spec §2.2.2). */
      type: 'build-paused';
      buildUuid: string;
      /** Result data returned so far (given to the dependents). */
      data?: Record<string, unknown>;
      artifacts?: Array<{ name: string; url: string; metadata?: Record<string, unknown> | null }>;
      childJobs?: string[] | null;
    }
  | { type: 'nodes-provisioned'; requestId: string; fulfilled: boolean; nodes: NodeInfo[] };
