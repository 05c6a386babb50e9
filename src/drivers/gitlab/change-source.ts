/**
 * The GitLab side of the engine's change source (docs/gitlab.md#changes): a merge request is a
 * change (iid as number, head sha as patchset, `refs/merge-requests/<iid>/head` as ref), read
 * through the API with its labels and approvals; `Depends-On:` lines of its description name
 * merge requests, pull requests or Gerrit changes by URL, of any connection.
 */
import { refChange, type ChangeInfo, type CodeReviewState } from '../../model/changes';
import type { GitProjects } from '../../sources/git-projects';
import { changesNamedByUrls, type ChangeOfUrl, type NamedChange } from '../depends-on';
import { locateProject, nullIfNotFound } from '../located-project';
import type { GitLabConnection, MergeRequestJson } from './connection';

/** A merge request URL's project path and iid: `<web>/<group>/<project>/-/merge_requests/<iid>` (the `/-/` optional). */
export function mergeRequestOfUrl(url: URL): NamedChange | null {
  const match = /^\/(.+?)\/(?:-\/)?merge_requests\/(\d+)\/?$/.exec(url.pathname);
  return match === null ? null : { project: match[1], number: Number(match[2]) };
}

export class GitLabChangeSource {
  constructor(
    private readonly connections: ReadonlyMap<string, GitLabConnection>,
    private readonly projects: GitProjects,
    private readonly changeOfUrl: ChangeOfUrl,
  ) {}

  private locate(project: string): { connection: GitLabConnection; name: string } | null {
    return locateProject(this.projects, this.connections, project);
  }

  async getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null> {
    const located = this.locate(project);
    if (!located) {
      return null;
    }
    const mr = await nullIfNotFound(() => located.connection.mergeRequest(located.name, number));
    return mr === null ? null : this.describe(project, located.connection, located.name, mr, patchset);
  }

  async getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo> {
    return refChange(project, ref, oldrev, newrev);
  }

  async openChanges(project: string): Promise<ChangeInfo[]> {
    const located = this.locate(project);
    if (!located) {
      return [];
    }
    const found: ChangeInfo[] = [];
    for (const mr of await located.connection.openMergeRequests(located.name)) {
      found.push(await this.describe(project, located.connection, located.name, mr));
    }
    return found;
  }

  async changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]> {
    const children: ChangeInfo[] = [];
    for (const project of projects) {
      const located = this.locate(project);
      if (!located) {
        continue;
      }
      for (const mr of await located.connection.openMergeRequests(located.name)) {
        const names = this.dependsOn(mr).some((d) => d.project === change.project && d.number === change.number);
        if (names) {
          children.push(await this.describe(project, located.connection, located.name, mr));
        }
      }
    }
    return children;
  }

  /** What the description's `Depends-On:` URLs name, on any connection (src/drivers/depends-on.ts). */
  private dependsOn(mr: MergeRequestJson): NamedChange[] {
    return changesNamedByUrls(mr.description ?? '', this.changeOfUrl, mergeRequestOfUrl);
  }

  private async describe(
    project: string,
    connection: GitLabConnection,
    name: string,
    mr: MergeRequestJson,
    patchset?: string,
  ): Promise<ChangeInfo> {
    const sha = patchset ?? mr.sha;
    const approvals = await connection.approvals(name, mr.iid);
    const review: CodeReviewState = {
      state: mr.state === 'opened' ? 'open' : mr.state,
      // GitLab's own flag (`draft`, or its older name `work_in_progress`); the title's prefix without either.
      draft: mr.draft ?? mr.work_in_progress ?? /^(draft:|\[draft\]|\(draft\))/i.test(mr.title),
      title: mr.title,
      labels: mr.labels,
      reviews: approvals.approved_by.map((a) => ({
        username: a.user.username,
        type: 'approved',
        permission: 'write',
        submittedAt: '',
      })),
      statuses: [],
      checks: [],
    };
    return {
      kind: 'change',
      project,
      ref: `refs/merge-requests/${mr.iid}/head`,
      branch: mr.target_branch,
      number: mr.iid,
      patchset: sha,
      oldrev: null,
      newrev: sha,
      url: mr.web_url,
      owner: mr.author?.username ?? null,
      dependsOn: this.dependsOn(mr),
      merged: mr.state === 'merged',
      currentPatchset: sha === mr.sha,
      review,
    };
  }
}
