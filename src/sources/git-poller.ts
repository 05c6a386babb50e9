/**
 * Polls the repositories of one git connection and turns what moved into trigger events:
 * `ref-updated` for branches and tags (created, updated, deleted) and `patchset-created` for
 * new change refs (docs/gating.md#sluices-own-rules). The first poll of a project records a baseline and emits
 * nothing. Polls never overlap; the next one is scheduled when the previous one has finished.
 *
 * Branch updates Sluice makes itself (a gate merge) are announced with `expectOwnUpdate`: the
 * poller emits them at once, exactly one `ref-updated` with `own: true` (so post pipelines run),
 * and moves its baseline so the next poll does not report the same update as an unknown push.
 */
import { git } from './git-cli';
import { describeChange, parseChangeRef, type ChangeDependency, type ChangeOwner } from './git-changes';
import type { GitMirrors } from './git-mirror';
import { ZERO_REVISION } from '../model/changes';

/** The revision used for "no commit" in oldrev (creation) and newrev (deletion), as the reference. */
export const ZERO_SHA = ZERO_REVISION;

export interface RefUpdatedEvent {
  type: 'ref-updated';
  connection: string;
  project: string;
  /** Full ref name, `refs/heads/<branch>` or `refs/tags/<tag>`. */
  ref: string;
  /** Branch name for branch refs, else null. */
  branch: string | null;
  /** Tag name for tag refs, else null. */
  tag: string | null;
  /** Previous commit, `ZERO_SHA` when the ref was created. */
  oldrev: string;
  /** New commit, `ZERO_SHA` when the ref was deleted. */
  newrev: string;
  branchCreated: boolean;
  branchDeleted: boolean;
  /** True when the update is Sluice's own merge (announced with `expectOwnUpdate`). */
  own: boolean;
  timestamp: Date;
}

export interface PatchsetCreatedEvent {
  type: 'patchset-created';
  connection: string;
  project: string;
  ref: string;
  change: number;
  patchset: number;
  newrev: string;
  /** Target branch (`Target-Branch:` trailer, else the default branch). */
  branch: string;
  owner: ChangeOwner;
  subject: string;
  dependsOn: ChangeDependency[];
  timestamp: Date;
}

export type GitTriggerEvent = RefUpdatedEvent | PatchsetCreatedEvent;

/** Timers and time, injectable so tests control scheduling. */
export interface PollerClock {
  now(): Date;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: PollerClock = {
  now: () => new Date(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface GitPollerOptions {
  connection: string;
  /** The poller's own mirrors (not shared with an executor's cache). */
  mirrors: GitMirrors;
  /** The projects to poll; asked before every poll so configuration changes take effect. */
  projects: () => string[] | Promise<string[]>;
  /** Milliseconds between the end of one poll and the start of the next. */
  intervalMs: number;
  /** Receives events in order; awaited, so a consumer can persist each before the next. */
  onEvent: (event: GitTriggerEvent) => void | Promise<void>;
  /** A project that could not be polled; the other projects are still polled. */
  onError?: (error: unknown, project: string) => void;
  clock?: PollerClock;
}

type RefSnapshot = Map<string, string>;

export class GitPoller {
  private readonly snapshots = new Map<string, RefSnapshot>();
  private readonly clock: PollerClock;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: unknown;
  private running = false;

  constructor(private readonly options: GitPollerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Start polling: a first (baseline) poll now, then one every `intervalMs` after the previous. */
  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.schedule(0);
  }

  /** Stop scheduling polls and wait for a poll in progress to finish. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.queue;
  }

  /** Poll every project once (after any poll in progress); resolves with the events emitted. */
  pollNow(): Promise<GitTriggerEvent[]> {
    return this.exclusive(() => this.pollAll());
  }

  /**
   * Announce that Sluice moved `branch` of `project` to `newrev` (a gate merge). Emits one
   * `ref-updated` with `own: true` unless a poll already reported the branch at `newrev`;
   * `oldrev` is used when the poller has no baseline for the project yet. Resolves with the
   * event emitted, or null.
   */
  expectOwnUpdate(project: string, branch: string, newrev: string, oldrev?: string): Promise<RefUpdatedEvent | null> {
    return this.exclusive(async () => {
      const ref = `refs/heads/${branch}`;
      const snapshot = this.snapshots.get(project);
      const known = snapshot?.get(ref);
      if (known === newrev) {
        return null;
      }
      const event = refEvent(
        this.options.connection,
        project,
        ref,
        known ?? oldrev ?? ZERO_SHA,
        newrev,
        this.clock.now(),
        true,
      );
      snapshot?.set(ref, newrev);
      await this.options.onEvent(event);
      return event;
    });
  }

  private schedule(delay: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.exclusive(() => this.pollAll()).finally(() => {
        if (this.running) {
          this.schedule(this.options.intervalMs);
        }
      });
    }, delay);
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async pollAll(): Promise<GitTriggerEvent[]> {
    const emitted: GitTriggerEvent[] = [];
    const projects = await this.options.projects();
    for (const project of projects) {
      let events: GitTriggerEvent[];
      try {
        events = await this.pollProject(project);
      } catch (err) {
        this.options.onError?.(err, project);
        continue;
      }
      for (const event of events) {
        await this.options.onEvent(event);
        emitted.push(event);
      }
    }
    return emitted;
  }

  private async pollProject(project: string): Promise<GitTriggerEvent[]> {
    const { connection, mirrors } = this.options;
    const mirror = await mirrors.update(connection, project);
    const current = await readRefs(mirror);
    const previous = this.snapshots.get(project);
    if (!previous) {
      this.snapshots.set(project, current);
      return [];
    }
    const now = this.clock.now();
    const events: GitTriggerEvent[] = [];
    const newChanges: string[] = [];
    for (const [ref, sha] of current) {
      const before = previous.get(ref);
      if (ref.startsWith('refs/changes/')) {
        // Change refs are immutable patchsets: only new ones matter.
        if (before === undefined) {
          newChanges.push(ref);
        }
        continue;
      }
      if (before !== sha) {
        events.push(refEvent(connection, project, ref, before ?? ZERO_SHA, sha, now, false));
      }
    }
    for (const [ref, sha] of previous) {
      if (!current.has(ref) && !ref.startsWith('refs/changes/')) {
        events.push(refEvent(connection, project, ref, sha, ZERO_SHA, now, false));
      }
    }
    const fallback = await mirrorDefaultBranch(mirror);
    for (const ref of sortChangeRefs(newChanges)) {
      const details = await describeChange(mirror, project, ref, fallback);
      events.push({
        type: 'patchset-created',
        connection,
        project,
        ref,
        change: details.number,
        patchset: details.patchset,
        newrev: details.sha,
        branch: details.targetBranch,
        owner: details.owner,
        subject: details.subject,
        dependsOn: details.dependsOn,
        timestamp: now,
      });
    }
    this.snapshots.set(project, current);
    return events;
  }
}

function refEvent(
  connection: string,
  project: string,
  ref: string,
  oldrev: string,
  newrev: string,
  timestamp: Date,
  own: boolean,
): RefUpdatedEvent {
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  const tag = ref.startsWith('refs/tags/') ? ref.slice('refs/tags/'.length) : null;
  return {
    type: 'ref-updated',
    connection,
    project,
    ref,
    branch,
    tag,
    oldrev,
    newrev,
    branchCreated: branch !== null && oldrev === ZERO_SHA,
    branchDeleted: branch !== null && newrev === ZERO_SHA,
    own,
    timestamp,
  };
}

async function readRefs(mirror: string): Promise<RefSnapshot> {
  const { stdout } = await git(mirror, [
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    'refs/heads/',
    'refs/tags/',
    'refs/changes/',
  ]);
  const refs: RefSnapshot = new Map();
  for (const line of stdout.split('\n')) {
    const [ref, sha] = line.split(' ');
    if (ref && sha) {
      refs.set(ref, sha);
    }
  }
  return refs;
}

async function mirrorDefaultBranch(mirror: string): Promise<string> {
  const { stdout } = await git(mirror, ['symbolic-ref', '--quiet', 'HEAD']);
  return stdout.trim().replace(/^refs\/heads\//, '');
}

function sortChangeRefs(refs: string[]): string[] {
  return refs
    .map((ref) => ({ ref, id: parseChangeRef(ref) }))
    .filter((entry) => entry.id !== null)
    .sort((a, b) => (a.id?.number ?? 0) - (b.id?.number ?? 0) || (a.id?.patchset ?? 0) - (b.id?.patchset ?? 0))
    .map((entry) => entry.ref);
}
