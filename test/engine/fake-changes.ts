/** A change source holding Gerrit-style changes and branch tips in memory, for engine tests. */
import type { ChangeSource } from '../../src/engine/ports/change-source';
import { refChange, type ChangeInfo } from '../../src/model/changes';
import { canonical, HOST } from './scripted-layout';

/** Changes and branches held in memory, with Depends-On and merged state. */
export class FakeChanges implements ChangeSource {
  private readonly changes = new Map<string, ChangeInfo[]>();
  private readonly branchTips = new Map<string, string>();
  /** Each change's topic (Gerrit's), by change key. */
  private readonly topics = new Map<string, string>();
  private revCounter = 0;

  private key(project: string, number: number): string {
    return `${canonical(project.replace(`${HOST}/`, ''))}#${number}`;
  }

  /** Add (or add a new patchset of) a change; returns it. */
  add(
    project: string,
    number: number,
    options: {
      patchset?: number;
      branch?: string;
      dependsOn?: Array<{ project: string; number: number }>;
      owner?: string;
      topic?: string;
    } = {},
  ): ChangeInfo {
    const patchsets = this.changes.get(this.key(project, number)) ?? [];
    const patchset = String(options.patchset ?? patchsets.length + 1);
    const change: ChangeInfo = {
      kind: 'change',
      project: canonical(project),
      ref: `refs/changes/${String(number % 100).padStart(2, '0')}/${number}/${patchset}`,
      branch: options.branch ?? 'master',
      number,
      patchset,
      oldrev: null,
      newrev: `sha-${number}-${patchset}`,
      url: `https://${HOST}/c/${number}`,
      owner: options.owner ?? 'alice',
      dependsOn: (options.dependsOn ?? []).map((dependency) => ({
        project: canonical(dependency.project),
        number: dependency.number,
      })),
      merged: false,
    };
    patchsets.push(change);
    this.changes.set(this.key(project, number), patchsets);
    if (options.topic !== undefined) {
      this.topics.set(this.key(project, number), options.topic);
    }
    return change;
  }

  /** Set (or, with undefined, remove) a change's topic, as Gerrit's topic-changed does. */
  setTopic(project: string, number: number, topic: string | undefined): void {
    if (topic === undefined) {
      this.topics.delete(this.key(project, number));
    } else {
      this.topics.set(this.key(project, number), topic);
    }
  }

  markMerged(project: string, number: number): void {
    for (const change of this.changes.get(this.key(project, number)) ?? []) {
      change.merged = true;
    }
  }

  isMerged(project: string, number: number): boolean {
    return (this.changes.get(this.key(project, number)) ?? []).some((change) => change.merged);
  }

  nextRev(): string {
    this.revCounter += 1;
    return `rev-${this.revCounter}`;
  }

  tip(project: string, branch: string): string | null {
    return this.branchTips.get(`${project}:${branch}`) ?? null;
  }

  setTip(project: string, branch: string, rev: string): void {
    this.branchTips.set(`${project}:${branch}`, rev);
  }

  /** The open changes with the change's topic (current patchsets), as Gerrit's topic query finds them. */
  async changesInTopic(change: ChangeInfo): Promise<ChangeInfo[]> {
    const topic = change.number === null ? undefined : this.topics.get(this.key(change.project, change.number));
    if (topic === undefined) {
      return [];
    }
    const found: ChangeInfo[] = [];
    for (const [key, patchsets] of this.changes) {
      const latest = patchsets[patchsets.length - 1];
      if (this.topics.get(key) === topic && !latest.merged && latest.number !== null) {
        const current = await this.getChange(latest.project, latest.number);
        if (current !== null) {
          found.push(current);
        }
      }
    }
    return found;
  }

  getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null> {
    const patchsets = this.changes.get(this.key(project, number)) ?? [];
    const found =
      patchset === undefined
        ? patchsets[patchsets.length - 1]
        : patchsets.find((candidate) => candidate.patchset === patchset);
    return Promise.resolve(found ? { ...found, currentPatchset: found === patchsets[patchsets.length - 1] } : null);
  }

  getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo> {
    const change = refChange(project, ref, oldrev, newrev);
    const tip = change.branch === null ? null : this.tip(project, change.branch);
    return Promise.resolve({ ...change, newrev: newrev ?? tip ?? '0000000' });
  }

  openChanges(project: string): Promise<ChangeInfo[]> {
    const open = [...this.changes.values()]
      .map((patchsets) => patchsets[patchsets.length - 1])
      .filter((change) => change.project === project && !change.merged);
    return Promise.resolve(open.map((change) => ({ ...change })));
  }

  changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]> {
    // One look at each change's latest patchset, without copying the whole store first: the
    // engine benchmark asks this of every enqueued change, with a thousand changes stored.
    const children: ChangeInfo[] = [];
    for (const patchsets of this.changes.values()) {
      const candidate = patchsets[patchsets.length - 1];
      if (!candidate.merged && dependsOnChange(candidate, change) && projects.includes(candidate.project)) {
        children.push({ ...candidate });
      }
    }
    return Promise.resolve(children);
  }
}

/** Whether `candidate` names `change` among its dependencies (a loop: no closure per candidate). */
function dependsOnChange(candidate: ChangeInfo, change: ChangeInfo): boolean {
  for (const dependency of candidate.dependsOn) {
    if (dependency.project === change.project && dependency.number === change.number) {
      return true;
    }
  }
  return false;
}
