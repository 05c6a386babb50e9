/** Why an item was reset (docs/analytics.md#gate-resets): what happened to an item ahead of it. */
export type GateResetCauseKind =
  /** An item ahead failed: the item moved behind the nearest non-failing item, or the failed item reported. */
  | 'item-ahead-failed'
  /** The item ahead passed but could not be merged. */
  | 'merge-failed'
  /** The item ahead no longer met the pipeline's requirements when it was to merge. */
  | 'requirements-not-met'
  /** The item ahead left because a change it needs left. */
  | 'dependency-dequeued'
  /** The item ahead was taken out (by an admin, a new patchset, a superseding pipeline, a reconfiguration...). */
  | 'item-ahead-dequeued'
  /** Items were promoted ahead of it. */
  | 'promoted';

export const GATE_RESET_CAUSES: readonly GateResetCauseKind[] = [
  'item-ahead-failed',
  'merge-failed',
  'requirements-not-met',
  'dependency-dequeued',
  'item-ahead-dequeued',
  'promoted',
];

export interface GateResetCause {
  kind: GateResetCauseKind;
  /** The uuid of the item whose failure or departure caused it, when there is one. */
  by: string | null;
}
