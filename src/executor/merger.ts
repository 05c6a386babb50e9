/**
 * The speculative state of an item (docs/gating.md#speculative-gating-in-a-dependent-queue): every project involved is
 * cloned from the repository cache, the merger items are applied in queue order (item ahead first) with each project's
 * merge mode, and each project is checked out on the right branch. A change that does not apply gives a MERGE_CONFLICT
 * outcome naming it. The same code prepares a build's workspace (`prepareWorkspace`) and answers "does this item merge,
 * and which files does it change" for the engine (`speculate`). `mergeToBranch` merges a gated change for real.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BuildItemRef, MergerItem, ProjectCheckout, WorkspaceScheme } from '../model/build-request';
import type { MergeMode } from '../model/merge-modes';
import { git, GitError } from '../sources/git-cli';
import { parseChangeRef } from '../sources/git-changes';
import { ZERO_REVISION as ZERO_SHA } from '../model/changes';
import { applyWithMode, MergeConflictError, revParse } from './merge-modes';
import { isOutOfSpace } from './out-of-space';
import { cloneObjectStores, PreparedMerges, preparedOnMirror, publishMerges, type MergeStep } from './prepared-merges';
import type { RepoCache } from './repo-cache';
import { workspacePath } from './workspace-scheme';
import {
  checkoutBranches,
  cloneMirror,
  defaultBranchOf,
  diffNames,
  filesSinceFork,
  hasCommit,
  receivePackFor,
  refCommit,
  type MirrorSnapshot,
} from './workspace-git';

/** One project of a prepared workspace. */
export interface WorkspaceProject {
  connection: string;
  project: string;
  /** Absolute path of the checkout. */
  path: string;
  /** Path relative to the workspace's `src/` directory. */
  relativePath: string;
  /** What is checked out: a branch name, or a commit for tags. */
  checkout: string;
  /** Commit of the checkout. */
  head: string;
  /** Speculative head of every branch the items changed in this project. */
  speculativeBranches: Record<string, string>;
}

export interface PrepareRequest {
  items: MergerItem[];
  /** Additional projects to check out (required-projects). */
  projects: ProjectCheckout[];
  scheme: WorkspaceScheme;
  /** The ref under test: its branch (or tag) decides what other projects check out. */
  item: Pick<BuildItemRef, 'connection' | 'project' | 'branch' | 'ref' | 'newrev'> | null;
  /** Job-level override-checkout. */
  overrideCheckout: string | null;
  /** Branch heads to merge onto instead of the current tips: what the speculative merge used (docs/gating.md#engine-work). */
  repoState?: RepoState | null;
}

/** Per project (`<connection>/<project>`), the commit each branch the items changed was merged onto. */
export type RepoState = Record<string, Record<string, string>>;

export type PrepareOutcome =
  | {
      ok: true;
      projects: WorkspaceProject[];
      /** Files changed by each merger item (same order as the items). */
      itemFiles: string[][];
      /** Files changed by the last item (the item under test). */
      changedFiles: string[];
      /** The branch heads the items were merged onto. */
      repoState: RepoState;
    }
  | { ok: false; result: 'MERGE_CONFLICT' | 'ERROR'; detail: string };

export interface MergeToBranchRequest {
  connection: string;
  project: string;
  /** The change ref to merge (`refs/changes/NN/N/P`). */
  ref: string;
  targetBranch: string;
  mergeMode: MergeMode;
  /** Merge in a scratch clone only, push nothing: whether the merge would apply (a cycle's check before it merges). */
  dryRun?: boolean;
}

export type MergeToBranchOutcome = { ok: true; oldrev: string; newrev: string } | { ok: false; detail: string };

class PrepareFailure extends Error {
  constructor(
    readonly result: 'MERGE_CONFLICT' | 'ERROR',
    message: string,
  ) {
    super(message);
  }
}

interface ProjectRepo {
  connection: string;
  project: string;
  dir: string;
  relativePath: string;
  heads: Map<string, string>;
  tagCheckout: string | null;
  /** Pinned branch heads (from the request's repo state), and the base each branch was merged onto. */
  pinned: Record<string, string>;
  bases: Map<string, string>;
  /** The mirror's branches and the items' refs when it was cloned. */
  snapshot: MirrorSnapshot;
  /** The merges made in this clone. */
  steps: MergeStep[];
}

const PUSH_ATTEMPTS = 3;

export class Merger {
  /** The merges this process made, for the workspaces and gate merges that apply the same ones. */
  readonly merges = new PreparedMerges();

  constructor(
    /** The executor's mirrors (also read for trusted playbooks, src/executor/branch-tree.ts). */
    readonly cache: RepoCache,
    /** Directory for scratch clones (speculate, mergeToBranch). */
    private readonly scratchRoot: string,
  ) {}

  /**
   * Prepare every project of a build under `srcRoot` at the speculative state. A `scratch`
   * preparation (a speculative merge, removed afterwards) leaves each clone at its merged commit
   * with its origin: nothing reads its branches or working tree.
   */
  async prepareWorkspace(
    request: PrepareRequest,
    srcRoot: string,
    options: { scratch?: boolean } = {},
  ): Promise<PrepareOutcome> {
    try {
      return await this.prepare(request, srcRoot, options.scratch === true);
    } catch (err) {
      if (err instanceof PrepareFailure) {
        return { ok: false, result: err.result, detail: err.message };
      }
      // A full disk says nothing about the change: the build ends ERROR, not MERGE_CONFLICT.
      if (isOutOfSpace(err)) {
        return {
          ok: false,
          result: 'ERROR',
          detail: `Out of space preparing the repositories: ${(err as Error).message}`,
        };
      }
      if (err instanceof GitError || err instanceof Error) {
        return { ok: false, result: 'MERGE_CONFLICT', detail: `Unable to prepare the repositories: ${err.message}` };
      }
      throw err;
    }
  }

  /** Merge the items in a scratch area, report conflicts and changed files, `inspect` the clones; nothing is kept. */
  async speculate(items: MergerItem[], inspect?: (outcome: PrepareOutcome) => Promise<void>): Promise<PrepareOutcome> {
    mkdirSync(this.scratchRoot, { recursive: true });
    const dir = mkdtempSync(path.join(this.scratchRoot, 'speculate-'));
    try {
      const last = items[items.length - 1];
      const item = last
        ? {
            connection: last.connection,
            project: last.project,
            branch: last.branch,
            ref: last.ref,
            newrev: last.newrev,
          }
        : null;
      const request = { items, projects: [], scheme: 'unique' as const, item, overrideCheckout: null };
      const outcome = await this.prepareWorkspace(request, dir, { scratch: true });
      await inspect?.(outcome);
      return outcome;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Merge a change into its target branch in the origin repository (gate success) and return
   * the branch's previous and new commit. A change already contained in the branch gives
   * `oldrev === newrev`. A concurrent push is retried on the new tip.
   */
  async mergeToBranch(request: MergeToBranchRequest): Promise<MergeToBranchOutcome> {
    if (!parseChangeRef(request.ref)) {
      return { ok: false, detail: `"${request.ref}" is not a change ref` };
    }
    let lastError = '';
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
      mkdirSync(this.scratchRoot, { recursive: true });
      const dir = mkdtempSync(path.join(this.scratchRoot, 'submit-'));
      try {
        await this.cache.update(request.connection, request.project);
        const message = mergeMessage(request.ref, request.targetBranch);
        // The speculative merge's commit on the branch's tip is pushed from the mirror: no clone.
        const prepared = await preparedOnMirror(this.merges, this.cache, request, message);
        const merged = prepared ?? (await this.mergeInClone(request, dir, message));
        if ('detail' in merged) {
          return { ok: false, detail: merged.detail };
        }
        const { oldrev, newrev } = merged;
        if (newrev === oldrev || request.dryRun === true) {
          return { ok: true, oldrev, newrev };
        }
        const origin = this.cache.origin(request.connection, request.project);
        try {
          await git(prepared?.mirror ?? dir, [
            'push',
            '--quiet',
            ...receivePackFor(origin),
            origin,
            `${newrev}:refs/heads/${request.targetBranch}`,
          ]);
        } catch (err) {
          lastError = err instanceof GitError ? err.stderr.trim() : String(err);
          continue; // the branch moved meanwhile: merge again on the new tip
        }
        await this.cache.update(request.connection, request.project);
        return { ok: true, oldrev, newrev };
      } catch (err) {
        if (err instanceof MergeConflictError) {
          return { ok: false, detail: conflictDetail(request.project, request.ref, request.targetBranch, err) };
        }
        lastError = err instanceof Error ? err.message : String(err);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return { ok: false, detail: `Unable to merge ${request.ref} into ${request.targetBranch}: ${lastError}` };
  }

  /** Merge the change onto the branch's tip in a clone of the mirror at `dir`. */
  private async mergeInClone(
    request: MergeToBranchRequest,
    dir: string,
    message: string,
  ): Promise<{ oldrev: string; newrev: string } | { detail: string }> {
    const snapshot = await cloneMirror(this.cache, request.connection, request.project, dir, [request.ref]);
    const oldrev = snapshot.refs.get(`refs/heads/${request.targetBranch}`) ?? '';
    if (oldrev === '') {
      return { detail: `Branch ${request.targetBranch} does not exist in ${request.project}` };
    }
    const commit = await refCommit(dir, snapshot, request.ref);
    if (commit === null) {
      return { detail: `Change ref ${request.ref} not found in ${request.project}` };
    }
    await git(dir, ['checkout', '--quiet', '--force', '--detach', oldrev]);
    return { oldrev, newrev: await applyWithMode(dir, commit, request.mergeMode, message) };
  }

  private async prepare(request: PrepareRequest, srcRoot: string, scratch: boolean): Promise<PrepareOutcome> {
    const repos = await this.cloneProjects(request, srcRoot, scratch);
    const itemFiles: string[][] = [];
    for (const item of request.items) {
      const repo = repos.get(projectKey(item.connection, item.project));
      if (!repo) {
        throw new PrepareFailure('ERROR', `project ${item.project} was not prepared`);
      }
      itemFiles.push(await applyItem(repo, item, this.merges));
    }
    for (const repo of scratch ? repos.values() : []) {
      // A speculative merge's results, for the builds and the gate merge of the same state.
      publishMerges(this.merges, repo.dir, this.cache.mirrors.mirrorPath(repo.connection, repo.project), repo.steps);
    }
    const projects: WorkspaceProject[] = [];
    const overrides = new Map(request.projects.map((p) => [projectKey(p.connection, p.project), p.overrideCheckout]));
    for (const repo of repos.values()) {
      projects.push(
        await checkoutProject(repo, request, overrides.get(projectKey(repo.connection, repo.project)) ?? null, scratch),
      );
    }
    const repoState: RepoState = {};
    for (const repo of repos.values()) {
      if (repo.bases.size > 0) {
        repoState[`${repo.connection}/${repo.project}`] = Object.fromEntries(repo.bases);
      }
    }
    return { ok: true, projects, itemFiles, changedFiles: itemFiles[itemFiles.length - 1] ?? [], repoState };
  }

  private async cloneProjects(
    request: PrepareRequest,
    srcRoot: string,
    scratch: boolean,
  ): Promise<Map<string, ProjectRepo>> {
    const wanted: { connection: string; project: string }[] = [];
    const seen = new Set<string>();
    for (const p of [...request.items, ...request.projects, ...(request.item ? [request.item] : [])]) {
      const key = projectKey(p.connection, p.project);
      if (!seen.has(key)) {
        seen.add(key);
        wanted.push({ connection: p.connection, project: p.project });
      }
    }
    const repos = new Map<string, ProjectRepo>();
    const usedPaths = new Map<string, string>();
    for (const { connection, project } of wanted) {
      let relativePath: string;
      try {
        relativePath = workspacePath(request.scheme, this.cache.connection(connection).canonicalHostname, project);
      } catch (err) {
        throw new PrepareFailure('ERROR', err instanceof Error ? err.message : String(err));
      }
      const clash = usedPaths.get(relativePath);
      if (clash !== undefined) {
        throw new PrepareFailure(
          'ERROR',
          `Projects ${clash} and ${project} share the workspace path ${relativePath} (workspace scheme ${request.scheme})`,
        );
      }
      usedPaths.set(relativePath, project);
      try {
        await this.cache.update(connection, project);
      } catch (err) {
        throw new PrepareFailure(
          'MERGE_CONFLICT',
          `Unable to update repository ${project}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      const dir = path.join(srcRoot, relativePath);
      if (existsSync(dir)) {
        throw new PrepareFailure('ERROR', `Workspace path ${relativePath} already exists`);
      }
      mkdirSync(path.dirname(dir), { recursive: true });
      const refs = request.items.filter((i) => i.connection === connection && i.project === project).map((i) => i.ref);
      const snapshot = await cloneMirror(this.cache, connection, project, dir, refs, scratch);
      repos.set(projectKey(connection, project), {
        connection,
        project,
        dir,
        relativePath,
        heads: new Map(),
        tagCheckout: null,
        pinned: request.repoState?.[`${connection}/${project}`] ?? {},
        bases: new Map(),
        snapshot,
        steps: [],
      });
    }
    return repos;
  }
}

/** Apply one merger item to its project's speculative state; resolves with the files it changes. */
async function applyItem(repo: ProjectRepo, item: MergerItem, merges: PreparedMerges): Promise<string[]> {
  if (item.change === null) {
    return applyRefItem(repo, item);
  }
  const branch = item.branch ?? (await defaultBranchOf(repo.dir));
  const head = await branchHead(repo, branch);
  if (head === null) {
    throw new PrepareFailure(
      'MERGE_CONFLICT',
      `Branch ${branch} does not exist in ${item.project} (change ${describeItem(item)})`,
    );
  }
  const commit = await refCommit(repo.dir, repo.snapshot, item.ref);
  if (commit === null) {
    throw new PrepareFailure('MERGE_CONFLICT', `Change ref ${item.ref} not found in ${item.project}`);
  }
  if (item.newrev !== null && item.newrev !== commit) {
    throw new PrepareFailure(
      'MERGE_CONFLICT',
      `Change ${describeItem(item)} of ${item.project} points at ${commit}, expected ${item.newrev}`,
    );
  }
  const message = mergeMessage(item.ref, branch);
  const prepared = merges.lookup(cloneObjectStores(repo.dir), head, commit, item.mergeMode, message);
  if (prepared !== null) {
    repo.heads.set(branch, prepared.merged);
    return prepared.files;
  }
  const files = await filesSinceFork(repo.dir, head, commit);
  await git(repo.dir, ['checkout', '--quiet', '--force', '--detach', head]);
  try {
    const merged = await applyWithMode(repo.dir, commit, item.mergeMode, message);
    repo.heads.set(branch, merged);
    repo.steps.push({ head, commit, mode: item.mergeMode, message, merged, files });
  } catch (err) {
    if (err instanceof MergeConflictError) {
      throw new PrepareFailure('MERGE_CONFLICT', conflictDetail(item.project, describeItem(item), branch, err));
    }
    throw err;
  }
  return files;
}

async function applyRefItem(repo: ProjectRepo, item: MergerItem): Promise<string[]> {
  const current = item.ref.startsWith('refs/heads/')
    ? (repo.snapshot.refs.get(item.ref) ?? '')
    : await revParse(repo.dir, item.ref).catch(() => '');
  const newrev = item.newrev !== null && item.newrev !== ZERO_SHA ? item.newrev : current;
  if (newrev === '') {
    throw new PrepareFailure('MERGE_CONFLICT', `Ref ${item.ref} not found in ${item.project}`);
  }
  if (!(await hasCommit(repo.dir, newrev))) {
    throw new PrepareFailure('MERGE_CONFLICT', `Commit ${newrev} of ${item.ref} not found in ${item.project}`);
  }
  if (item.ref.startsWith('refs/heads/')) {
    repo.heads.set(item.ref.slice('refs/heads/'.length), newrev);
  } else {
    repo.tagCheckout = newrev;
  }
  if (item.oldrev !== null && item.oldrev !== ZERO_SHA && (await hasCommit(repo.dir, item.oldrev))) {
    return diffNames(repo.dir, item.oldrev, newrev);
  }
  return [];
}

/**
 * Check a project out: the project's override-checkout, else the job's, else the branch of the
 * ref under test, else the default branch; a name that is neither a branch nor a tag of the
 * project is skipped. Every branch becomes a local branch at its speculative head and the
 * connection to the executor's cache is removed. A scratch clone is left as it is.
 */
async function checkoutProject(
  repo: ProjectRepo,
  request: PrepareRequest,
  projectOverride: string | null,
  scratch: boolean,
): Promise<WorkspaceProject> {
  const branches = new Map(repo.snapshot.branches);
  for (const [branch, sha] of repo.heads) {
    branches.set(branch, sha);
  }
  const isItemProject =
    request.item !== null && request.item.connection === repo.connection && request.item.project === repo.project;
  let checkout: string | null = null;
  if (isItemProject && repo.tagCheckout !== null && projectOverride === null) {
    checkout = repo.tagCheckout;
  }
  for (const candidate of [projectOverride, request.overrideCheckout, request.item?.branch ?? null]) {
    if (checkout !== null || candidate === null) {
      continue;
    }
    if (branches.has(candidate)) {
      checkout = candidate;
    } else if (await hasCommit(repo.dir, `refs/tags/${candidate}`)) {
      checkout = await revParse(repo.dir, `refs/tags/${candidate}`);
    }
  }
  checkout ??= await defaultBranchOf(repo.dir);
  if (checkout === '' || (!branches.has(checkout) && !(await hasCommit(repo.dir, checkout)))) {
    throw new PrepareFailure('ERROR', `No branch to check out in ${repo.project}`);
  }
  const head = branches.get(checkout) ?? (await revParse(repo.dir, checkout));
  if (!scratch) {
    await checkoutBranches(repo.dir, branches, checkout);
    await git(repo.dir, ['remote', 'remove', 'origin']);
  }
  return {
    connection: repo.connection,
    project: repo.project,
    path: repo.dir,
    relativePath: repo.relativePath,
    checkout,
    head,
    speculativeBranches: Object.fromEntries(repo.heads),
  };
}

async function branchHead(repo: ProjectRepo, branch: string): Promise<string | null> {
  const speculative = repo.heads.get(branch);
  if (speculative !== undefined) {
    return speculative;
  }
  const pinned = repo.pinned[branch] as string | undefined;
  const current = repo.snapshot.refs.get(`refs/heads/${branch}`) ?? '';
  if (pinned !== undefined && pinned !== current && !(await hasCommit(repo.dir, pinned))) {
    throw new PrepareFailure('ERROR', `Commit ${pinned} of branch ${branch} of ${repo.project} was not found`);
  }
  const sha = pinned ?? current;
  if (sha !== '') {
    repo.bases.set(branch, sha);
  }
  return sha === '' ? null : sha;
}

function mergeMessage(ref: string, branch: string): string {
  const id = parseChangeRef(ref);
  return id ? `Merge change ${id.number},${id.patchset} into ${branch}` : `Merge ${ref} into ${branch}`;
}

function describeItem(item: MergerItem): string {
  return item.change !== null ? `${item.change},${item.patchset ?? ''}` : item.ref;
}

function conflictDetail(project: string, what: string, branch: string, err: MergeConflictError): string {
  const files = err.files.length > 0 ? ` (conflicting files: ${err.files.join(', ')})` : '';
  return `Merge conflict in ${project}: ${what} does not apply to ${branch}${files}: ${err.message}`;
}

const projectKey = (connection: string, project: string): string => `${connection}\u0000${project}`;
