/**
 * Changes and ref updates as the engine tracks them (persisted with each queue item), and the
 * items of a speculative merge built from them.
 */
import type { MergerItem } from './build-request';
import type { MergeMode } from './merge-modes';

export type ChangeKind = 'change' | 'branch' | 'tag' | 'ref';

/** The revision of a ref that does not exist (before a creation, after a deletion, or not given). */
export const ZERO_REVISION = '0000000000000000000000000000000000000000';

/** Which change (patchset) or ref update of which project: what changes and merge items share. */
export interface ChangeRef {
  /** Canonical project name. */
  project: string;
  ref: string;
  branch: string | null;
  number: number | null;
  patchset: string | null;
  oldrev: string | null;
  newrev: string | null;
}

/** A change (patchset) or a ref as the engine sees it. */
export interface ChangeInfo extends ChangeRef {
  kind: ChangeKind;
  url: string | null;
  owner: string | null;
  /** Changes named by `Depends-On:` trailers (project canonical name + number). */
  dependsOn: Array<{ project: string; number: number }>;
  /** Whether the change is already merged into its branch. */
  merged: boolean;
  /** False when a newer patchset of the change exists (absent: not known, taken as current). */
  currentPatchset?: boolean;
  /** What a code-review system says of the change (GitHub pull requests; absent for git changes). */
  review?: CodeReviewState;
  /** What Gerrit says of the change (docs/gerrit.md#changes; absent for other drivers' changes). */
  gerrit?: GerritChangeState;
}

/**
 * A ref update (branch, tag or other ref) as a change: no number or patchset, already merged;
 * `kind` and `branch` follow from the ref's name.
 */
export function refChange(project: string, ref: string, oldrev: string | null, newrev: string | null): ChangeInfo {
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  return {
    kind: branch !== null ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : 'ref',
    project,
    ref,
    branch,
    number: null,
    patchset: null,
    oldrev,
    newrev,
    url: null,
    owner: null,
    dependsOn: [],
    merged: true,
  };
}

/** A pull request's review state, read when the change is read (docs/github.md#changes). */
export interface CodeReviewState {
  /** `open` or `closed`. */
  state: string;
  draft: boolean;
  title: string;
  labels: string[];
  /** The latest review of each reviewer: `type` is GitHub's state in lower case (`approved`, ...). */
  reviews: Array<{ username: string; type: string; permission: string; submittedAt: string }>;
  /** Commit statuses of the head commit as `<creator>:<context>:<state>`. */
  statuses: string[];
  /** Check runs of the head commit as `<app>:<name>:<conclusion or status>`. */
  checks: string[];
}

/** A Gerrit change's review state, read with the change (docs/gerrit.md#changes). */
export interface GerritChangeState {
  /** `NEW`, `MERGED` or `ABANDONED`. */
  status: string;
  wip: boolean;
  topic: string | null;
  hashtags: string[];
  /** The Change-Id trailer's value (`I` and 40 hex digits). */
  changeId: string;
  /** Current votes of the patch set: one per label and voter (zero votes left out). */
  approvals: Array<{ label: string; value: number; username: string; email: string; grantedOn: string }>;
  /**
   * Labels Gerrit lists for the change that are neither approved nor optional, or that block
   * (docs/gerrit.md#submit-requirements); absent in states saved before it was read.
   */
  missingLabels?: string[];
  /** Gerrit's submit requirements of the change (Gerrit 3.5 and later): name, status, submittability expression. */
  submitRequirements?: Array<{ name: string; status: string; expression: string }>;
}

/**
 * Why Gerrit would not merge a change, judged as the reference's `canMerge` judges it
 * (docs/gerrit.md#submit-requirements): work in progress; a missing label other than
 * `allowNeeds` (the labels the pipeline's success reporters vote); an unsatisfied submit
 * requirement whose expression names none of `allowNeeds` (`label:<name>`). Null when it would.
 */
export function gerritMergeRefusal(state: GerritChangeState, allowNeeds: readonly string[]): string | null {
  if (state.wip) {
    return 'work in progress flag';
  }
  const missing = (state.missingLabels ?? []).filter((label) => !allowNeeds.includes(label));
  if (missing.length > 0) {
    return `missing labels: ${missing.join(', ')}`;
  }
  const blocking = (state.submitRequirements ?? []).find(
    (requirement) =>
      requirement.status === 'UNSATISFIED' &&
      !allowNeeds.some((label) => requirement.expression.includes(`label:${label}`)),
  );
  return blocking === undefined
    ? null
    : `submit requirement ${blocking.name} unsatisfied (${blocking.expression || 'no expression'})`;
}

/** One change of a speculative merge, oldest first (items ahead, then the item itself). */
export interface MergeItem extends ChangeRef {
  connection: string;
  mergeMode: MergeMode;
  buildsetUuid: string;
}

/** A merge item as the executor's merger takes it: the project as its connection names the repository. */
export function toMergerItem(item: MergeItem, repository: { connection: string; project: string }): MergerItem {
  return {
    connection: repository.connection,
    project: repository.project,
    branch: item.branch,
    ref: item.ref,
    change: item.number,
    patchset: item.patchset,
    oldrev: item.oldrev,
    newrev: item.newrev,
    mergeMode: item.mergeMode,
  };
}

/**
 * The name of a project from its canonical name, by the rule canonical names are made with
 * (`<canonical hostname>/<name>`): what follows the first `/`. For projects no layout knows;
 * a layout's own name wins where there is one.
 */
export function nameFromCanonical(canonicalName: string): string {
  const slash = canonicalName.indexOf('/');
  return slash < 0 ? canonicalName : canonicalName.slice(slash + 1);
}

/** A display identifier for a change: `N,P` for changes, the new revision for refs. */
export function changeId(change: ChangeInfo): string {
  if (change.kind === 'change' && change.number !== null) {
    return `${change.number},${change.patchset ?? ''}`;
  }
  return change.newrev ?? change.ref;
}

/** True when two change records denote the same change patchset or ref update. */
export function sameChange(a: ChangeInfo, b: ChangeInfo): boolean {
  if (a.project !== b.project) {
    return false;
  }
  if (a.kind === 'change' && b.kind === 'change') {
    return a.number === b.number && a.patchset === b.patchset;
  }
  return a.kind === b.kind && a.ref === b.ref && a.newrev === b.newrev;
}
