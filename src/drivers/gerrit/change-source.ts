/**
 * The Gerrit side of the engine's change source (docs/gerrit.md#changes): a change is
 * `<number>,<patchset>` with its ref `refs/changes/NN/N/P`, read over the REST API with its
 * status, work-in-progress flag, topic, hashtags and current votes; `Depends-On:` lines of the
 * patch set's commit message name changes by URL (`<baseurl>/c/<project>/+/<number>`, Gerrit's
 * older `<baseurl>/#/c/<number>` and `<baseurl>/<number>`, or any other connection's change URL)
 * or by Change-Id (every open change of that Change-Id).
 */
import { refChange, type ChangeInfo, type GerritChangeState } from '../../model/changes';
import type { GitProjects } from '../../sources/git-projects';
import { changesNamedByUrls, dependsOnUrlLines, parsedUrl, type ChangeOfUrl, type NamedChange } from '../depends-on';
import type { ChangeJson, GerritClient } from './client';

/** One Gerrit connection as the change source uses it. */
export interface GerritSource {
  name: string;
  canonicalHostname: string;
  client: GerritClient;
}

/** The Change-Ids of a commit message's `Depends-On:` lines (its URLs are read by src/drivers/depends-on.ts). */
export function dependsOnChangeIds(message: string): string[] {
  return [...message.matchAll(/^Depends-On:\s*(I[0-9a-f]{40})\s*$/gim)].map((match) => match[1]);
}

/** A change URL's project and number: `<baseurl>/c/<project>/+/<number>`. */
export function gerritChangeOfUrl(url: URL): NamedChange | null {
  const match = /\/c\/(.+)\/\+\/(\d+)\/?$/.exec(url.pathname);
  const project = match === null ? null : decodedOrNull(match[1]);
  return match === null || project === null ? null : { project, number: Number(match[2]) };
}

/**
 * The number of a change URL of Gerrit's older shapes under `baseurl`, which name no project:
 * `<baseurl>/#/c/<number>` (the old web UI) and `<baseurl>/<number>` (the short link), either
 * followed by `/...` (a patch set); null for another host, path or shape. The reference matches
 * them as `/<prefix>(#/c/|c/.*\/+/)?(\d+)`.
 */
export function olderShapeNumber(text: string, baseurl: string): number | null {
  const url = parsedUrl(text);
  const base = parsedUrl(baseurl);
  if (url === null || base === null || url.host !== base.host) {
    return null;
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const path = `${url.pathname}${url.hash}`;
  const match = path.startsWith(`${prefix}/`) ? /^\/(?:#\/c\/)?(\d+)(?:\/.*)?$/.exec(path.slice(prefix.length)) : null;
  return match === null ? null : Number(match[1]);
}

/** A URL path's text decoded, or null for a malformed escape (a URL nobody's change has). */
function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Gerrit's times (`2013-02-01 09:59:32.126000000`, UTC) as ISO 8601. */
export function gerritTime(value: string | undefined): string {
  if (value === undefined) {
    return '';
  }
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d{1,3})?/.exec(value);
  return match === null ? value : `${match[1]}T${match[2]}${match[3] ?? ''}Z`;
}

export class GerritChangeSource {
  constructor(
    private readonly sources: ReadonlyMap<string, GerritSource>,
    private readonly projects: GitProjects,
    private readonly changeOfUrl: ChangeOfUrl,
  ) {}

  private locate(project: string): { source: GerritSource; name: string } | null {
    const location = this.projects.locate(project);
    const source = location ? this.sources.get(location.connection) : undefined;
    return location && source ? { source, name: location.name } : null;
  }

  async getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null> {
    const located = this.locate(project);
    const json = located ? await located.source.client.change(located.name, number) : null;
    return located && json ? this.describe(project, located.source, json, patchset) : null;
  }

  async getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo> {
    return refChange(project, ref, oldrev, newrev);
  }

  async openChanges(project: string): Promise<ChangeInfo[]> {
    const located = this.locate(project);
    if (!located) {
      return [];
    }
    const changes = await located.source.client.query(`project:${located.name} status:open`);
    return Promise.all(changes.map((json) => this.describe(project, located.source, json)));
  }

  /**
   * The open changes of the change's topic on its connection (Gerrit's `status:open topic:"X"`
   * query, as the reference asks it), each as its current patch set; none without a topic.
   */
  async changesInTopic(change: ChangeInfo): Promise<ChangeInfo[]> {
    const located = this.locate(change.project);
    const topic = change.gerrit?.topic;
    if (!located || !topic) {
      return [];
    }
    const found = await located.source.client.query(`status:open topic:"${topic.replace(/"/g, '')}"`);
    return Promise.all(
      found.map((json) => this.describe(`${located.source.canonicalHostname}/${json.project}`, located.source, json)),
    );
  }

  async changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]> {
    const children: ChangeInfo[] = [];
    for (const project of projects) {
      for (const open of await this.openChanges(project)) {
        if (open.dependsOn.some((d) => d.project === change.project && d.number === change.number)) {
          children.push(open);
        }
      }
    }
    return children;
  }

  /**
   * How many distinct unmerged changes this one needs, transitively (itself not counted); the
   * walk stops once the count passes `limit`.
   */
  async countNeeded(change: ChangeInfo, limit: number): Promise<number> {
    const key = (d: { project: string; number: number | null }) => `${d.project}#${d.number}`;
    const seen = new Set([key(change)]);
    const frontier = [...change.dependsOn];
    let count = 0;
    for (let next = frontier.shift(); next !== undefined && count <= limit; next = frontier.shift()) {
      if (seen.has(key(next))) {
        continue;
      }
      seen.add(key(next));
      const needed = await this.getChange(next.project, next.number);
      if (needed && !needed.merged) {
        count += 1;
        frontier.push(...needed.dependsOn);
      }
    }
    return count;
  }

  /**
   * The open change whose patch set is this revision's parent commit (the reference's git
   * dependency; a merged parent is no dependency), from Gerrit's related changes.
   */
  private async gitParent(
    source: GerritSource,
    json: ChangeJson,
    sha: string,
  ): Promise<{ project: string; number: number } | null> {
    const parents = (json.revisions?.[sha]?.commit?.parents ?? []).map((p) => p.commit);
    if (json.status !== 'NEW' || parents.length === 0) {
      return null;
    }
    const related = await source.client.related(json.project, json._number, sha);
    const parent = related.find((entry) => entry.commit?.commit !== undefined && parents.includes(entry.commit.commit));
    if (parent?._change_number === undefined || parent.status === 'MERGED') {
      return null;
    }
    return { project: `${source.canonicalHostname}/${parent.project ?? json.project}`, number: parent._change_number };
  }

  private async dependencies(
    source: GerritSource,
    json: ChangeJson,
    sha: string | null,
  ): Promise<ChangeInfo['dependsOn']> {
    const found: ChangeInfo['dependsOn'] = [];
    const add = (dependency: { project: string; number: number } | null) => {
      if (
        dependency !== null &&
        !found.some((d) => d.project === dependency.project && d.number === dependency.number)
      ) {
        found.push(dependency);
      }
    };
    add(sha === null ? null : await this.gitParent(source, json, sha));
    const message = sha === null ? '' : (json.revisions?.[sha]?.commit?.message ?? '');
    changesNamedByUrls(message, this.changeOfUrl, gerritChangeOfUrl).forEach(add);
    // Gerrit's older URL shapes name no project: Gerrit says whose change the number is.
    for (const line of dependsOnUrlLines(message)) {
      for (const other of this.sources.values()) {
        const number = olderShapeNumber(line, other.client.base);
        const named = number === null ? [] : await other.client.query(`change:${number}`);
        add(
          named.length === 0
            ? null
            : { project: `${other.canonicalHostname}/${named[0].project}`, number: named[0]._number },
        );
      }
    }
    for (const changeId of dependsOnChangeIds(message)) {
      for (const open of await source.client.query(`change:${changeId} status:open`)) {
        add({ project: `${source.canonicalHostname}/${open.project}`, number: open._number });
      }
    }
    return found;
  }

  private async describe(
    project: string,
    source: GerritSource,
    json: ChangeJson,
    patchset?: string,
  ): Promise<ChangeInfo> {
    const revisions = Object.entries(json.revisions ?? {});
    const current = json.current_revision ?? revisions.at(-1)?.[0] ?? null;
    const wanted = patchset === undefined ? current : revisions.find(([, r]) => String(r._number) === patchset)?.[0];
    const [sha, revision] = revisions.find(([key]) => key === wanted) ?? [null, undefined];
    const number = revision?._number ?? Number(patchset ?? 0);
    return {
      kind: 'change',
      project,
      ref: revision?.ref ?? `refs/changes/${String(json._number % 100).padStart(2, '0')}/${json._number}/${number}`,
      branch: json.branch,
      number: json._number,
      patchset: String(number),
      oldrev: null,
      newrev: sha,
      url: `${source.client.base}/c/${json.project}/+/${json._number}`,
      owner: json.owner?.username ?? json.owner?.name ?? null,
      dependsOn: await this.dependencies(source, json, sha),
      merged: json.status === 'MERGED',
      currentPatchset: sha !== null && sha === current,
      gerrit: gerritState(json),
    };
  }
}

/**
 * The labels the reference counts missing (docs/gerrit.md#submit-requirements): each label Gerrit
 * lists that blocks, or that is neither optional nor approved; and where Gerrit answers no submit
 * requirements, each label a `NOT_READY` submit record needs (`NEED`) or rejects (`REJECT`), as
 * the reference reads the records of older Gerrit.
 */
function missingLabels(json: ChangeJson): string[] {
  const missing = Object.entries(json.labels ?? {})
    .filter(([, label]) => label.optional !== true && (label.blocking === true || label.approved === undefined))
    .map(([name]) => name);
  const records = (json.submit_requirements ?? []).length === 0 ? (json.submit_records ?? []) : [];
  for (const record of records.filter((r) => r.status === 'NOT_READY')) {
    for (const { label, status } of record.labels ?? []) {
      if (label !== undefined && (status === 'NEED' || status === 'REJECT') && !missing.includes(label)) {
        missing.push(label);
      }
    }
  }
  return missing;
}

export function gerritState(json: ChangeJson): GerritChangeState {
  const approvals: GerritChangeState['approvals'] = [];
  for (const [label, detail] of Object.entries(json.labels ?? {})) {
    for (const vote of detail.all ?? []) {
      if (vote.value !== undefined && vote.value !== 0) {
        approvals.push({
          label,
          value: vote.value,
          username: vote.username ?? '',
          email: vote.email ?? '',
          grantedOn: gerritTime(vote.date),
        });
      }
    }
  }
  return {
    status: json.status,
    wip: json.work_in_progress === true,
    topic: json.topic ?? null,
    hashtags: json.hashtags ?? [],
    changeId: json.change_id,
    approvals,
    missingLabels: missingLabels(json),
    submitRequirements: (json.submit_requirements ?? []).map((requirement) => ({
      name: requirement.name ?? '',
      status: requirement.status ?? '',
      expression: requirement.submittability_expression_result?.expression ?? '',
    })),
  };
}
