/**
 * The git driver behind the engine's change source: changes are read from Gerrit-style change
 * refs in the project mirrors (src/sources/git-changes.ts). It answers what the engine's
 * `ChangeSource` port asks (wired in src/server/roles.ts).
 */
import { refChange, type ChangeInfo } from '../../model/changes';
import { git } from '../../sources/git-cli';
import {
  describeChange,
  listChanges,
  type ChangeDependency,
  type ChangeDetails,
  type ChangeRef,
} from '../../sources/git-changes';
import type { GitMirrors } from '../../sources/git-mirror';
import type { GitProjectLocation, GitProjects } from '../../sources/git-projects';

async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await git(repo, ['merge-base', '--is-ancestor', ancestor, descendant]);
    return true;
  } catch {
    return false;
  }
}

/** A parsed commit's key: its ref and sha, and the branch a change without `Target-Branch:` targets. */
const detailsKey = (location: GitProjectLocation, ref: string, sha: string): string =>
  [location.connection, location.name, location.defaultBranch, ref, sha].join('\n');

/** Parsed commits kept by GitChangeSource (a commit never changes, so entries never go stale). */
const DETAILS_CACHE_LIMIT = 10_000;

export class GitChangeSource {
  private readonly detailsCache = new Map<string, ChangeDetails>();

  constructor(
    private readonly mirrors: Pick<GitMirrors, 'update' | 'readRefs'>,
    private readonly projects: GitProjects,
  ) {}

  /** Bring the project's mirror up to date; its path and change refs (read once per fetch: an enqueue asks twice). */
  private async mirrorChanges(location: GitProjectLocation): Promise<{ repo: string; changes: readonly ChangeRef[] }> {
    const repo = await this.mirrors.update(location.connection, location.name);
    const changes = await this.mirrors.readRefs(location.connection, location.name, 'changes', () => listChanges(repo));
    return { repo, changes };
  }

  async getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null> {
    const location = this.projects.locate(project);
    if (!location) {
      return null;
    }
    const { repo, changes } = await this.mirrorChanges(location);
    const patchsets = changes.filter((candidate) => candidate.number === number);
    const found =
      patchset === undefined
        ? patchsets[patchsets.length - 1]
        : patchsets.find((candidate) => String(candidate.patchset) === patchset);
    if (!found) {
      return null;
    }
    return this.describe(repo, project, location, found, found === patchsets[patchsets.length - 1]);
  }

  async getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo> {
    let revision = newrev;
    const location = this.projects.locate(project);
    if (revision === null && location) {
      const repo = await this.mirrors.update(location.connection, location.name);
      revision =
        (
          await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => ({ stdout: '' }))
        ).stdout.trim() || null;
    }
    return refChange(project, ref, oldrev, revision);
  }

  async openChanges(project: string): Promise<ChangeInfo[]> {
    const location = this.projects.locate(project);
    if (!location) {
      return [];
    }
    const { repo, changes } = await this.mirrorChanges(location);
    const latest = new Map<number, ChangeRef>();
    for (const change of changes) {
      latest.set(change.number, change);
    }
    const open: ChangeInfo[] = [];
    for (const ref of latest.values()) {
      const change = await this.describe(repo, project, location, ref, true);
      if (!change.merged) {
        open.push(change);
      }
    }
    return open;
  }

  /**
   * Open changes (their current patchsets) naming this one in `Depends-On:`. Called on every
   * enqueue into a dependent pipeline, so only the candidates' parsed commits are read (cached
   * by sha) and the merged check runs for the few that name the change.
   */
  async changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]> {
    const children: ChangeInfo[] = [];
    for (const project of projects) {
      const location = this.projects.locate(project);
      if (!location) {
        continue;
      }
      const { repo, changes } = await this.mirrorChanges(location);
      const latest = new Map<number, ChangeRef>();
      for (const candidate of changes) {
        latest.set(candidate.number, candidate);
      }
      for (const candidate of latest.values()) {
        const details = await this.details(repo, location, candidate);
        const names = details.dependsOn.some((dependency) => {
          const named = this.dependency(project, location.connection, dependency);
          return named.project === change.project && named.number === change.number;
        });
        if (!names) {
          continue;
        }
        const described = await this.describe(repo, project, location, candidate, true);
        if (!described.merged) {
          children.push(described);
        }
      }
    }
    return children;
  }

  private async details(
    repo: string,
    location: GitProjectLocation,
    ref: Pick<ChangeRef, 'ref' | 'sha'>,
  ): Promise<ChangeDetails> {
    const key = detailsKey(location, ref.ref, ref.sha);
    const cached = this.detailsCache.get(key);
    if (cached) {
      return cached;
    }
    const details = await describeChange(repo, location.name, ref.ref, location.defaultBranch);
    if (this.detailsCache.size >= DETAILS_CACHE_LIMIT) {
      this.detailsCache.clear();
    }
    // Keyed by the sha the ref pointed at when listed; a ref moved since then is read again next time.
    this.detailsCache.set(detailsKey(location, ref.ref, details.sha), details);
    return details;
  }

  private async describe(
    repo: string,
    project: string,
    location: GitProjectLocation,
    change: Pick<ChangeRef, 'ref' | 'sha'>,
    currentPatchset: boolean,
  ): Promise<ChangeInfo> {
    const ref = change.ref;
    // The parsed commit is shared with changesDependingOn, which reads every open change's.
    const details = await this.details(repo, location, change);
    const merged = await isAncestor(repo, details.sha, `refs/heads/${details.targetBranch}`);
    return {
      kind: 'change',
      project,
      ref,
      branch: details.targetBranch,
      number: details.number,
      patchset: String(details.patchset),
      oldrev: null,
      newrev: details.sha,
      url: null,
      owner: details.owner.name,
      dependsOn: details.dependsOn.map((dependency) => this.dependency(project, location.connection, dependency)),
      merged,
      currentPatchset,
    };
  }

  private dependency(
    project: string,
    connection: string,
    dependency: ChangeDependency,
  ): { project: string; number: number } {
    if (dependency.kind === 'ref') {
      return { project, number: dependency.number };
    }
    return { project: this.projects.canonicalName(connection, dependency.project), number: dependency.number };
  }
}
