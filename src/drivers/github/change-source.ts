/**
 * The GitHub side of the engine's change source (docs/github.md#changes): a pull request is a
 * change (number, head sha as patchset, title and body as message, URL as `ref_url`), read
 * through the API with its reviews, labels, statuses and check runs; `Depends-On:` lines name
 * pull requests, Gerrit changes or merge requests by URL, across repositories and connections.
 */
import { refChange, type ChangeInfo, type CodeReviewState } from '../../model/changes';
import type { GitProjects } from '../../sources/git-projects';
import { changesNamedByUrls, type ChangeOfUrl, type NamedChange } from '../depends-on';
import { locateProject, nullIfNotFound } from '../located-project';
import type { GitHubConnection, PullJson } from './connection';

/** A pull request URL's repository (`<owner>/<repo>`) and number: `<web>/<owner>/<repo>/pull/<n>`. */
export function pullRequestOfUrl(url: URL): NamedChange | null {
  const match = /^\/([^/]+\/[^/]+)\/pull\/(\d+)\/?$/.exec(url.pathname);
  return match === null ? null : { project: match[1], number: Number(match[2]) };
}

/** Pull requests whose review state is read at the same time (by `openChanges`). */
const DETAIL_READS_IN_FLIGHT = 4;

/** `fn` over the items, at most `limit` at a time, the results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export class GitHubChangeSource {
  constructor(
    private readonly connections: ReadonlyMap<string, GitHubConnection>,
    private readonly projects: GitProjects,
    private readonly changeOfUrl: ChangeOfUrl,
  ) {}

  private locate(project: string): { connection: GitHubConnection; name: string } | null {
    return locateProject(this.projects, this.connections, project);
  }

  async getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null> {
    const located = this.locate(project);
    if (!located) {
      return null;
    }
    const pull = await nullIfNotFound(() => located.connection.pull(located.name, number));
    return pull === null ? null : this.describe(project, located.connection, located.name, pull, patchset);
  }

  async getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo> {
    return refChange(project, ref, oldrev, newrev);
  }

  async openChanges(project: string): Promise<ChangeInfo[]> {
    const located = this.locate(project);
    if (!located) {
      return [];
    }
    // The list's entries are the pull requests (no read of each); their review state is read a
    // few at a time, and mostly answered 304 from the connection's cache after the first time.
    const pulls = await located.connection.openPulls(located.name);
    return mapLimited(pulls, DETAIL_READS_IN_FLIGHT, (pull) =>
      this.describe(project, located.connection, located.name, pull),
    );
  }

  async changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]> {
    const children: ChangeInfo[] = [];
    for (const project of projects) {
      const located = this.locate(project);
      if (!located) {
        continue;
      }
      for (const pull of await located.connection.openPulls(located.name)) {
        const names = this.dependsOn(pull).some((d) => d.project === change.project && d.number === change.number);
        if (names) {
          children.push(await this.describe(project, located.connection, located.name, pull));
        }
      }
    }
    return children;
  }

  /** What the description's `Depends-On:` URLs name, on any connection (src/drivers/depends-on.ts). */
  private dependsOn(pull: PullJson): NamedChange[] {
    return changesNamedByUrls(pull.body ?? '', this.changeOfUrl, pullRequestOfUrl);
  }

  private async describe(
    project: string,
    connection: GitHubConnection,
    repository: string,
    pull: PullJson,
    patchset?: string,
  ): Promise<ChangeInfo> {
    const sha = patchset ?? pull.head.sha;
    const [review, dependsOn] = [await this.reviewState(connection, repository, pull), this.dependsOn(pull)];
    return {
      kind: 'change',
      project,
      ref: `refs/pull/${pull.number}/head`,
      branch: pull.base.ref,
      number: pull.number,
      patchset: sha,
      oldrev: null,
      newrev: sha,
      url: pull.html_url,
      owner: pull.user?.login ?? null,
      dependsOn,
      merged: pull.merged ?? (pull.merged_at !== undefined && pull.merged_at !== null),
      currentPatchset: sha === pull.head.sha,
      review,
    };
  }

  private async reviewState(
    connection: GitHubConnection,
    repository: string,
    pull: PullJson,
  ): Promise<CodeReviewState> {
    const [reviews, statuses, checks] = await Promise.all([
      connection.reviews(repository, pull.number),
      connection.statuses(repository, pull.head.sha),
      connection.checkRuns(repository, pull.head.sha),
    ]);
    // The latest review of each reviewer counts (COMMENTED does not replace a verdict).
    const latest = new Map<string, { state: string; submittedAt: string }>();
    for (const r of reviews) {
      const user = r.user?.login;
      // A PENDING review is not submitted yet (it has no submission time).
      if (!user || r.state === 'PENDING' || (r.state === 'COMMENTED' && latest.has(user))) {
        continue;
      }
      latest.set(user, { state: r.state, submittedAt: r.submitted_at ?? '' });
    }
    const permissions = await Promise.all(
      [...latest.keys()].map((user) => connection.permission(repository, user).catch(() => 'read')),
    );
    return {
      state: pull.state,
      draft: pull.draft ?? false,
      title: pull.title,
      labels: pull.labels.map((l) => l.name),
      reviews: [...latest.entries()].map(([username, r], i) => ({
        username,
        type: r.state.toLowerCase(),
        permission: permissions[i],
        submittedAt: r.submittedAt,
      })),
      statuses: statuses.statuses.map((s) => `${s.creator?.login ?? ''}:${s.context}:${s.state}`),
      checks: checks.check_runs.map((c) => `${c.app.slug}:${c.name}:${c.conclusion ?? c.status}`),
    };
  }
}
