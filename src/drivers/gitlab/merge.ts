/**
 * Merging a merge request through the API (docs/gitlab.md#reporters): `PUT .../merge` at the tested
 * `sha` (`squash` for the `squash-merge` merge mode). Where the project allows a merge only after
 * a successful pipeline and the merge request's head pipeline is still running, GitLab refuses the
 * merge (405); Sluice then asks GitLab to merge when the pipeline succeeds (`auto_merge`, and
 * `merge_when_pipeline_succeeds` for GitLab before 17.11) and waits for the outcome: merged, or
 * the pipeline failed or the auto-merge was cancelled (the item's merge failure).
 */
import { systemClock, type TimerClock } from '../../engine/ports/clock';
import { GitLabApiError, type GitLabConnection, type MergeRequestJson } from './connection';

/** Head pipeline statuses that have not finished yet (GitLab's pipeline statuses). */
const UNFINISHED = new Set([
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'scheduled',
  'manual',
]);

export type MergeOutcome = { merged: true; oldrev: null; newrev: string } | { merged: false; error: string };

export interface MergeWaitOptions {
  /** Milliseconds between reads of the merge request while GitLab waits for the pipeline. */
  pollMs: number;
  /** Milliseconds after which an auto-merge not done yet counts as failed. */
  timeoutMs: number;
  /** The clock of the waits and of the deadline (tests move a fake one on). */
  timers: TimerClock;
}

export const DEFAULT_MERGE_WAIT: MergeWaitOptions = {
  pollMs: 5000,
  timeoutMs: 3 * 60 * 60 * 1000,
  timers: systemClock,
};

function mergedOutcome(mr: MergeRequestJson): MergeOutcome {
  return { merged: true, oldrev: null, newrev: mr.merge_commit_sha ?? mr.squash_commit_sha ?? mr.sha };
}

/** Merge a merge request at `sha`; GitLab's answer says why it did not. */
export async function mergeMergeRequest(
  connection: GitLabConnection,
  project: string,
  iid: number,
  sha: string | null,
  mergeMode: string,
  wait: MergeWaitOptions = DEFAULT_MERGE_WAIT,
): Promise<MergeOutcome> {
  const body = { ...(sha ? { sha } : {}), squash: mergeMode === 'squash-merge' };
  try {
    const mr = await connection.merge(project, iid, body);
    return mr.state === 'merged'
      ? mergedOutcome(mr)
      : { merged: false, error: `GitLab did not merge it (state ${mr.state})` };
  } catch (err) {
    if (!(err instanceof GitLabApiError) || err.status !== 405) {
      return { merged: false, error: (err as Error).message };
    }
    const current = await connection.mergeRequest(project, iid).catch(() => null);
    const pipeline = current?.head_pipeline?.status;
    if (current?.state !== 'opened' || pipeline === undefined || !UNFINISHED.has(pipeline)) {
      return { merged: false, error: err.message };
    }
    return mergeWhenPipelineSucceeds(connection, project, iid, body, wait);
  }
}

async function mergeWhenPipelineSucceeds(
  connection: GitLabConnection,
  project: string,
  iid: number,
  body: Record<string, unknown>,
  wait: MergeWaitOptions,
): Promise<MergeOutcome> {
  try {
    let mr = await connection.merge(project, iid, { ...body, auto_merge: true, merge_when_pipeline_succeeds: true });
    const { timers } = wait;
    const deadline = timers.now().getTime() + wait.timeoutMs;
    while (mr.state === 'opened') {
      const pipeline = mr.head_pipeline?.status;
      if (pipeline !== undefined && !UNFINISHED.has(pipeline) && pipeline !== 'success') {
        return { merged: false, error: `GitLab's pipeline of the merge request ended ${pipeline}; not merged` };
      }
      if (mr.merge_when_pipeline_succeeds === false && mr.auto_merge_enabled !== true) {
        return { merged: false, error: 'The merge when the pipeline succeeds was cancelled in GitLab' };
      }
      if (timers.now().getTime() > deadline) {
        return { merged: false, error: `GitLab's pipeline did not finish within ${wait.timeoutMs / 1000} s` };
      }
      await new Promise<void>((resolve) => timers.after(wait.pollMs, resolve));
      mr = await connection.mergeRequest(project, iid);
    }
    return mr.state === 'merged' ? mergedOutcome(mr) : { merged: false, error: `The merge request was ${mr.state}` };
  } catch (err) {
    return { merged: false, error: (err as Error).message };
  }
}
