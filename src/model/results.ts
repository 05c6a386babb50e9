/**
 * Results and states shared by the engine, the store and the API. Values and meanings follow
 * the reference engine (docs/gating.md#results); descriptions are reused by the GraphQL enums.
 */

/** Final (or retry) result of one build; null while the build is queued or running. */
export const BUILD_RESULTS = {
  SUCCESS: 'Every run step succeeded and no post-run step failed.',
  FAILURE: 'A run step failed (non-zero exit), or a needed artifact provider failed.',
  POST_FAILURE: 'A post-run step failed while the run steps had succeeded.',
  TIMED_OUT: 'The run steps exceeded the job timeout; the process group was killed.',
  RETRY: 'The build will be run again (a pre-run step failed or the executor gave up); not final.',
  RETRY_LIMIT: 'A retryable failure happened on the last allowed attempt.',
  ABORTED: 'The executor stopped the build (cancel or shutdown) of a buildset that is no longer current.',
  CANCELED: 'Sluice canceled the build while its buildset stayed current (fail-fast, needed change failing).',
  SKIPPED: 'The build never ran: a dependency failed, or the item left the pipeline first.',
  NODE_FAILURE: 'No node could be provided for the build.',
  MERGE_CONFLICT: 'The repositories could not be prepared for the build.',
  MERGER_FAILURE: 'Legacy spelling of MERGE_CONFLICT; treated identically.',
  DISK_FULL: 'The build exceeded the disk limit of its workspace.',
  ERROR: 'The job definition could not be run (missing script, bad variable name, no branch).',
} as const;
export type BuildResult = keyof typeof BUILD_RESULTS;

/** Result of a buildset (one attempt to test an item); null while running. */
export const BUILDSET_RESULTS = {
  SUCCESS: 'All voting jobs succeeded (or were skipped) and, in a dependent pipeline, the change merged.',
  FAILURE: 'A voting job failed, a needed change failed, or pipeline requirements were missing.',
  MERGE_CONFLICT: 'The speculative merge of the item failed.',
  MERGE_FAILURE: 'The jobs succeeded but the change could not be merged into its branch.',
  CONFIG_ERROR: 'The item carried a blocking configuration error.',
  NO_JOBS: 'The project is not in the pipeline, or no job matched the change.',
  DEQUEUED: 'The item left the pipeline without a result (dequeue, superseded, reset, reconfiguration).',
  ERROR: 'Reporting the item failed.',
} as const;
export type BuildsetResult = keyof typeof BUILDSET_RESULTS;

/** Severity of a configuration error. */
export const CONFIG_ERROR_SEVERITIES = ['error', 'warning'] as const;
export type ConfigErrorSeverity = (typeof CONFIG_ERROR_SEVERITIES)[number];
