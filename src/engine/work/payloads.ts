/**
 * The payloads of durable engine work (docs/gating.md#engine-work) as a pass stores them in
 * `engine_work`, validated when the work runner reads them back.
 */
import { z } from 'zod';
import type { MergeItem } from '../../model/changes';
import { reportFailureSchema } from '../../model/engine-events';
import { configLocationsSchema } from '../../model/proposed-config';
import type { ItemReport } from '../ports/reporter';

const object = z.record(z.string(), z.unknown());
/** A report or merge item as the pass built it (the engine's own types; checked for shape only). */
const itemReport = object.transform((value) => value as unknown as ItemReport);
const mergeItems = z.array(object).transform((value) => value as unknown as MergeItem[]);

export const reportWorkSchema = z.object({ buildsetUuid: z.string(), report: itemReport });
export type ReportWork = z.infer<typeof reportWorkSchema>;

export const speculativeMergeWorkSchema = z.object({
  pipeline: z.string(),
  buildsetUuid: z.string(),
  items: mergeItems,
  /** Projects whose configuration the merge reads back (docs/gating.md#speculative-layouts); absent in older rows. */
  configLocations: configLocationsSchema.optional(),
});
export type SpeculativeMergeWork = z.infer<typeof speculativeMergeWorkSchema>;

/** A tag's item: the branches containing its commit are looked up (docs/project-configuration.md#jobs). */
export const tagBranchesWorkSchema = z.object({
  pipeline: z.string(),
  buildsetUuid: z.string(),
  item: object.transform((value) => value as unknown as MergeItem),
});
export type TagBranchesWork = z.infer<typeof tagBranchesWorkSchema>;

/** The merge of a successful item: its success report first (branch protection may require it), then its changes. */
export const branchMergeWorkSchema = z.object({
  pipeline: z.string(),
  buildsetUuid: z.string(),
  report: itemReport.nullable(),
  items: mergeItems,
  /**
   * The buildset whose branch merge must have been made before this one (the item ahead, whose
   * merge was out when this one was asked for; docs/gating.md#merges-in-a-row).
   */
  after: z.string().nullable().optional(),
});
export type BranchMergeWork = z.infer<typeof branchMergeWorkSchema>;

/** What a branch merge already did, kept on its row so a leader taking it over does not do it again. */
export const branchMergeProgressSchema = z.object({
  reported: z.boolean(),
  /**
   * The success report failed: kept with `reported`, so that the merge's completion carries it
   * (and the next pass records it) also when another leader completes the row.
   */
  reportFailure: reportFailureSchema.optional(),
  merged: z.array(z.object({ project: z.string(), change: z.number().int(), newrev: z.string().nullable() })),
});
export type BranchMergeProgress = z.infer<typeof branchMergeProgressSchema>;

/**
 * The buildset a speculative merge or tag look-up is for (work an item's reset or departure
 * withdraws, docs/gating.md#engine-work); null for other work.
 */
export function withdrawableBuildset(kind: string, payload: unknown): string | null {
  if (kind !== 'speculative-merge' && kind !== 'tag-branches') {
    return null;
  }
  const uuid = (payload as { buildsetUuid?: unknown } | null)?.buildsetUuid;
  return typeof uuid === 'string' ? uuid : null;
}

/**
 * True when doing the row reports to the outside (a report, or a branch merge with its success
 * report): such a call repeated is seen, so it is not made while a completion write may be failing.
 */
export function reportsOutside(kind: string, payload: unknown): boolean {
  return kind === 'report' || (kind === 'branch-merge' && (payload as { report?: unknown } | null)?.report != null);
}
