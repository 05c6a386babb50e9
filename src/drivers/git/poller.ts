/**
 * Polls the repositories of one git connection and turns what moved into trigger events:
 * `ref-updated` for branches and tags (created, updated, deleted) and `patchset-created` for
 * new change refs (docs/gating.md#sluices-own-rules). The refs last reported are kept in a
 * `PollerStateStore`; a project's first poll with nothing stored records a baseline and emits
 * nothing, and `start` resolves once those baselines are recorded. With the durable store a poll's events and the new refs are saved in one
 * transaction, so a restart reports what moved while Sluice was down, exactly once
 * (docs/operations.md#durable-source-state). Polls never overlap; the next one is scheduled
 * when the previous one has finished.
 *
 * Branch updates Sluice makes itself (a gate merge) are announced with `expectOwnUpdate`: the
 * poller emits each once as `ref-updated` with `own: true` (so post pipelines run), whether its
 * next poll or the announcement's own save records it first.
 */
import { git } from '../../sources/git-cli';
import { describeChange, parseChangeRef, type ChangeDependency, type ChangeOwner } from '../../sources/git-changes';
import type { GitMirrors } from '../../sources/git-mirror';
import { ZERO_REVISION } from '../../model/changes';
import { MemoryPollerState, type PollerStateStore, type StoredRefs } from './poller-state';
import { systemClock, type TimerClock } from '../../engine/ports/clock';
import { PeriodicTask } from '../../engine/ports/periodic-task';

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

export interface GitPollerOptions {
  connection: string;
  /** The poller's own mirrors (not shared with an executor's cache). */
  mirrors: GitMirrors;
  /** The projects to poll; asked before every poll so configuration changes take effect. */
  projects: () => string[] | Promise<string[]>;
  /** Milliseconds between the end of one poll and the start of the next. */
  intervalMs: number;
  /** Receives events in order once they are saved (the durable store has written them already). */
  onEvent: (event: GitTriggerEvent) => void | Promise<void>;
  /** Where the refs last reported are kept; default: this process's memory. */
  state?: PollerStateStore;
  /** A project that could not be polled; the other projects are still polled. */
  onError?: (error: unknown, project: string) => void;
  /** Time and the loop's timers (src/engine/ports/clock.ts); default: the system clock. */
  clock?: TimerClock;
}

type RefSnapshot = Map<string, string>;

/** Saves retried when another poller of the connection saved the same project first. */
const SAVE_ATTEMPTS = 5;

/** An announced own update, and whoever waits for it to be reported. */
interface OwnExpectation {
  newrev: string;
  oldrev: string | undefined;
  settle: Array<(event: RefUpdatedEvent | null) => void>;
}

export class GitPoller {
  private readonly state: PollerStateStore;
  private readonly clock: TimerClock;
  /** Own updates announced and not reported yet, by project and ref. */
  private readonly expected = new Map<string, Map<string, OwnExpectation>>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The polls every `intervalMs` (src/engine/ports/periodic-task.ts). */
  private readonly loop: PeriodicTask;
  private running = false;
  /** Set by `stop`: a poll round in progress ends after the project being polled. */
  private stopping = false;

  constructor(private readonly options: GitPollerOptions) {
    this.clock = options.clock ?? systemClock;
    this.state = options.state ?? new MemoryPollerState();
    this.loop = new PeriodicTask({
      name: `git poll of ${options.connection}`,
      intervalMs: options.intervalMs,
      tick: () => this.exclusive(() => this.pollAll()),
      // A project's failure goes to onError inside the round; this is a failure of the round itself.
      onError: (error) => this.options.onError?.(error, '(every project)'),
      clock: this.clock,
      // `stop` ends a round after the project being polled, so it waits for that round.
      stopWaitMs: null,
    });
  }

  /**
   * Start polling: a first poll now, then one every `intervalMs` after the previous. Resolves
   * once every project that had nothing stored has its baseline, so a push made after it
   * resolves is reported (docs/operations.md#durable-source-state); the service waits for it
   * before it listens. A project that cannot be polled goes to `onError` and gets its baseline
   * at its first successful poll.
   */
  start(): Promise<void> {
    if (this.running) {
      return Promise.resolve();
    }
    this.running = true;
    this.stopping = false;
    const baselines = this.exclusive(() => this.recordMissingBaselines());
    this.loop.start(0);
    return baselines;
  }

  /** Stop scheduling polls and wait for the project being polled (a round in progress ends after it). */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    await this.loop.stop();
    await this.queue;
  }

  /** Poll every project once (after any poll in progress); resolves with the events emitted. */
  pollNow(): Promise<GitTriggerEvent[]> {
    return this.exclusive(() => this.pollAll());
  }

  /**
   * Announce that Sluice moved `branch` of `project` to `newrev` (a gate merge). The update is
   * reported once as `ref-updated` with `own: true`, by the next poll or by a save of its own,
   * whichever comes first; `oldrev` is used when nothing is stored for the project yet. The
   * announcement is recorded at once: callers inside a scheduler pass must not wait for the
   * returned promise (it needs the database), which resolves with the event emitted here, or
   * null when a poll reported it or the stored refs already had it.
   */
  expectOwnUpdate(project: string, branch: string, newrev: string, oldrev?: string): Promise<RefUpdatedEvent | null> {
    const ref = `refs/heads/${branch}`;
    const refs = this.expected.get(project) ?? new Map<string, OwnExpectation>();
    this.expected.set(project, refs);
    const previous = refs.get(ref);
    const expectation: OwnExpectation = { newrev, oldrev, settle: [] };
    refs.set(ref, expectation);
    // An earlier announcement of the same branch is overtaken: this one covers its move too.
    previous?.settle.forEach((settle) => settle(null));
    const reported = new Promise<RefUpdatedEvent | null>((resolve) => expectation.settle.push(resolve));
    void this.exclusive(() => this.reportOwnUpdates(project)).catch((err: unknown) =>
      this.options.onError?.(err, project),
    );
    return reported;
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
      if (this.stopping) {
        break; // stopping: the projects not polled yet are polled by the next start (their state is stored)
      }
      let events: GitTriggerEvent[];
      try {
        events = await this.pollProject(project);
      } catch (err) {
        this.options.onError?.(err, project);
        continue;
      }
      await this.emit(events);
      emitted.push(...events);
    }
    return emitted;
  }

  /** Poll the projects with nothing stored: each records its baseline (or reports, if another poller did). */
  private async recordMissingBaselines(): Promise<void> {
    let projects: string[];
    try {
      projects = await this.options.projects();
    } catch (err) {
      this.options.onError?.(err, '*');
      return;
    }
    for (const project of projects) {
      try {
        if ((await this.state.load(project)) === null) {
          await this.emit(await this.pollProject(project));
        }
      } catch (err) {
        this.options.onError?.(err, project);
      }
    }
  }

  private async emit(events: readonly GitTriggerEvent[]): Promise<void> {
    for (const event of events) {
      await this.options.onEvent(event);
    }
  }

  /**
   * Compare the mirror with the stored refs and save the events with the new refs. The mirror is
   * fetched after reading the stored refs, so a save by another poller that the first attempt
   * lost to is never older than what the next attempt compares with.
   */
  private async pollProject(project: string): Promise<GitTriggerEvent[]> {
    const { connection, mirrors } = this.options;
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt += 1) {
      const stored = await this.state.load(project);
      const mirror = await mirrors.update(connection, project);
      const current = await readRefs(mirror);
      if (!stored) {
        if (await this.state.save(project, null, current, [])) {
          this.settleReported(project, current);
          return [];
        }
        continue;
      }
      if (sameRefs(stored.refs, current)) {
        this.settleReported(project, current);
        return [];
      }
      const events = await this.changes(project, mirror, stored, current);
      if (await this.state.save(project, stored.generation, current, events)) {
        this.settleReported(project, current);
        return events;
      }
    }
    throw new Error(`the stored refs of ${project} kept moving while they were being saved`);
  }

  private async changes(
    project: string,
    mirror: string,
    stored: StoredRefs,
    current: RefSnapshot,
  ): Promise<GitTriggerEvent[]> {
    const { connection } = this.options;
    const previous = stored.refs;
    const now = this.clock.now();
    const own = this.expected.get(project);
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
        const isOwn = own?.get(ref)?.newrev === sha;
        events.push(refEvent(connection, project, ref, before ?? ZERO_SHA, sha, now, isOwn));
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
    return events;
  }

  /** Own updates whose branch the saved refs already show are reported (by a poll or earlier). */
  private settleReported(project: string, saved: ReadonlyMap<string, string>): void {
    const refs = this.expected.get(project);
    for (const [ref, expectation] of refs ?? []) {
      if (saved.get(ref) === expectation.newrev) {
        refs?.delete(ref);
        expectation.settle.forEach((settle) => settle(null));
      }
    }
  }

  /** Save and emit the project's announced own updates that no poll has reported yet. */
  private async reportOwnUpdates(project: string): Promise<void> {
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt += 1) {
      const stored = await this.state.load(project);
      if (stored) {
        this.settleReported(project, stored.refs);
      }
      const pending = [...(this.expected.get(project) ?? new Map<string, OwnExpectation>())];
      if (pending.length === 0) {
        return;
      }
      const now = this.clock.now();
      const refs = stored ? new Map(stored.refs) : null;
      const events = pending.map(([ref, expectation]) => {
        refs?.set(ref, expectation.newrev);
        const oldrev = stored?.refs.get(ref) ?? expectation.oldrev ?? ZERO_SHA;
        return refEvent(this.options.connection, project, ref, oldrev, expectation.newrev, now, true);
      });
      if (await this.state.save(project, stored?.generation ?? null, refs, events)) {
        const refsOfProject = this.expected.get(project);
        pending.forEach(([ref, expectation], index) => {
          if (refsOfProject?.get(ref) === expectation) {
            refsOfProject.delete(ref);
          }
          expectation.settle.forEach((settle) => settle(events[index]));
        });
        await this.emit(events);
        return;
      }
    }
    throw new Error(`the stored refs of ${project} kept moving while an own update was being saved`);
  }
}

function sameRefs(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) {
    return false;
  }
  for (const [ref, sha] of a) {
    if (b.get(ref) !== sha) {
      return false;
    }
  }
  return true;
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
