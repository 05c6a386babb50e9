/**
 * A fake Gerrit for tests (docs/gerrit.md#the-fake-gerrit-for-tests): the REST endpoints the
 * driver uses (with Gerrit's `)]}'` prefix and HTTP basic, digest or form authentication under `/a/`), git over
 * HTTP (`git http-backend`) of real bare repositories with `refs/changes/NN/N/P`, and an SSH
 * server streaming events (test/helpers/fake-ssh-server.ts). It records every request, review
 * and submit; tests upload patch sets and vote through its methods, which emit the events Gerrit
 * would.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { changeJson } from './change-json';
import { submitRefusal, type LabelSettings } from './labels';
import { account, eventChange, gerritDate, voteText, type Account, type FakeChange } from './model';
import { branchHead, createProject, pushPatchset, pushToBranch, submitRevision, type FileMap } from './repos';
import { FakeAuthState } from './auth';
import { handleRequest } from './rest';
import { FakeSshServer } from '../fake-ssh-server';

export { account, type Account, type FakeChange } from './model';

export class FakeGerrit {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'fake-gerrit-'));
  readonly changes: FakeChange[] = [];
  readonly requests: Array<{ method: string; path: string; body: unknown; at: number }> = [];
  /** Submits, in order: `<number>,<patchset>`. */
  readonly submitted: string[] = [];
  /** Faults of the next review posts, in order: 503 without applying it, or 502 after applying it. */
  readonly reviewFaults: Array<'refuse' | 'lose-answer'> = [];
  /** Every event line emitted. */
  readonly events: string[] = [];
  readonly ssh: FakeSshServer;
  /** Labels listed without votes, optional labels and submit requirements (test/helpers/fake-gerrit/labels.ts). */
  readonly labels: LabelSettings = { listed: [], optional: [], requirements: [], rules: [] };
  /** The checks plugin's checkers (`plugins/checks/checkers/`) and its checks not started yet. */
  readonly checkers: Array<{ uuid: string; repository: string; status: 'ENABLED' | 'DISABLED' }> = [];
  readonly pendingChecks: Array<{ change: number; patchset: number; uuid: string }> = [];
  /** What `GET /config/server/version` answers. */
  version = '3.9.1';
  /**
   * Whether the events-log plugin is installed (`GET /plugins/events-log/events/?t1=&t2=` answers
   * the lines emitted, with when; else 404), and, when `failing`, whether it answers 503.
   */
  readonly eventsLog = { installed: false, failing: false, lines: [] as Array<{ line: string; at: number }> };
  /** HTTP authentication under `/a/` (`auth.mode`: basic, digest, form) and what it keeps (auth.ts). */
  readonly auth: FakeAuthState;
  private readonly http: Server;
  private readonly accounts = new Map<string, Account>();
  /** While set, change requests wait for it (`holdChangeRequests`). */
  private held: Promise<void> | null = null;
  /** The paths of the change requests that waited, in order (a test tells whose request waits). */
  readonly heldPaths: string[] = [];
  url = '';

  constructor(
    readonly user: string,
    readonly password: string,
    clientPublicKey: string,
  ) {
    this.auth = new FakeAuthState(user, password);
    this.ssh = new FakeSshServer(user, clientPublicKey, this.root);
    this.http = createServer((req, res) => {
      handleRequest(this, req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
  }

  async start(): Promise<void> {
    await this.ssh.start();
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await this.ssh.stop();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Make change requests and the checks plugin's wait until the returned function is called (a slow Gerrit). */
  holdChangeRequests(): () => void {
    let release = () => undefined as void;
    this.held = new Promise<void>((resolve) => {
      release = () => {
        this.held = null;
        resolve();
      };
    });
    return release;
  }

  /** Wait while change requests are held (`holdChangeRequests`), noting the request's path. */
  async waitWhileHeld(requestPath: string): Promise<void> {
    if (this.held !== null) {
      this.heldPaths.push(requestPath);
      await this.held;
    }
  }

  accountOf(username: string): Account {
    const known = this.accounts.get(username) ?? account(username);
    this.accounts.set(username, known);
    return known;
  }

  createProject(name: string, files: FileMap): Promise<string> {
    return createProject(this.root, name, files);
  }

  change(number: number): FakeChange {
    const found = this.changes.find((c) => c.number === number);
    if (!found) {
      throw new Error(`no change ${number}`);
    }
    return found;
  }

  /** A new change (or, with `change`, a new patch set of it) on top of its branch; emits patchset-created. */
  async upload(
    project: string,
    options: {
      subject: string;
      files: FileMap;
      branch?: string;
      change?: number;
      footer?: string;
      /** A change whose newest patch set is the parent commit (a git dependency); default: the branch's head. */
      parent?: number;
      topic?: string;
    },
  ): Promise<FakeChange> {
    const existing = options.change === undefined ? undefined : this.change(options.change);
    const change: FakeChange = existing ?? {
      number: this.changes.length + 1,
      project,
      branch: options.branch ?? 'master',
      changeId: `I${randomBytes(20).toString('hex')}`,
      subject: options.subject,
      status: 'NEW',
      owner: this.accountOf('dev'),
      patchsets: [],
      votes: [],
      messages: [],
      updated: '',
      reviews: [],
      refuseSubmit: null,
      ...(options.topic === undefined ? {} : { topic: options.topic }),
    };
    const patchset = change.patchsets.length + 1;
    const ref = `refs/changes/${String(change.number % 100).padStart(2, '0')}/${change.number}/${patchset}`;
    const footer = options.footer === undefined ? '' : `${options.footer}\n`;
    const message = `${options.subject}\n\n${footer}Change-Id: ${change.changeId}\n`;
    const parent =
      options.parent === undefined
        ? await branchHead(this.root, project, change.branch)
        : (this.change(options.parent).patchsets.at(-1)?.revision as string);
    const revision = await pushPatchset(this.root, project, parent, ref, options.files, message);
    change.updated = gerritDate();
    change.patchsets.push({ number: patchset, revision, ref, message, parent, created: change.updated });
    // A new patch set keeps no votes here (Gerrit copies some by label rules; not modelled).
    change.votes = [];
    if (!existing) {
      this.changes.push(change);
    }
    this.emit({ type: 'patchset-created', uploader: change.owner, ...this.eventChange(change) });
    return change;
  }

  /** A reviewer votes (and comments); emits comment-added with every label's vote, `oldValue` where it changed. */
  review(number: number, username: string, labels: Record<string, number>, message = ''): void {
    const change = this.change(number);
    const by = this.accountOf(username);
    const approvals = this.vote(change, by, labels);
    const votes = Object.entries(labels).map(([label, value]) => ` ${voteText(label, value)}`);
    const comment = `Patch Set ${change.patchsets.length}:${votes.join('')}${message ? `\n\n${message}` : ''}`;
    this.addMessage(change, by, comment);
    this.emit({ type: 'comment-added', author: by, approvals, comment, ...this.eventChange(change) });
  }

  /**
   * The owner (or `username`) sets (or, with undefined, removes) the change's topic, writing
   * Gerrit's message of it (`Topic set to b`, `Topic changed from a to b`, `Topic a removed`);
   * emits topic-changed, `oldTopic` empty when there was none and no patch set (as Gerrit sends it).
   */
  setTopic(number: number, topic: string | undefined, username?: string): void {
    const change = this.change(number);
    const oldTopic = change.topic ?? '';
    if (topic === undefined) {
      delete change.topic;
    } else {
      change.topic = topic;
    }
    change.updated = gerritDate();
    const changer = username === undefined ? change.owner : this.accountOf(username);
    const text =
      oldTopic === ''
        ? `Topic set to ${topic ?? ''}`
        : topic === undefined
          ? `Topic ${oldTopic} removed`
          : `Topic changed from ${oldTopic} to ${topic}`;
    this.addMessage(change, changer, text, 'autogenerated:gerrit:setTopic');
    // A change event, not a patch set event, in Gerrit: no patch set, as the catch-up rebuilds it
    // (src/drivers/gerrit/catch-up.ts), which tells stored events by what they carry.
    const { patchSet: _none, ...event } = this.eventChange(change);
    this.emit({ type: 'topic-changed', changer, oldTopic, ...event });
  }

  /** `username` adds `reviewer` to the change as a reviewer; emits reviewer-added (Gerrit writes no message of it). */
  addReviewer(number: number, reviewer: string, username: string): void {
    const change = this.change(number);
    const adder = this.accountOf(username);
    this.emit({ type: 'reviewer-added', reviewer: this.accountOf(reviewer), adder, ...this.eventChange(change) });
  }

  /** The owner abandons a change; emits change-abandoned. */
  abandon(number: number): void {
    const change = this.change(number);
    change.status = 'ABANDONED';
    change.updated = gerritDate();
    this.addMessage(change, change.owner, 'Abandoned', 'autogenerated:gerrit:abandon');
    this.emit({ type: 'change-abandoned', abandoner: change.owner, reason: '', ...this.eventChange(change) });
  }

  /** The owner restores an abandoned change; emits change-restored. */
  restore(number: number): void {
    const change = this.change(number);
    change.status = 'NEW';
    change.updated = gerritDate();
    this.addMessage(change, change.owner, 'Restored', 'autogenerated:gerrit:restore');
    this.emit({ type: 'change-restored', restorer: change.owner, reason: '', ...this.eventChange(change) });
  }

  /** The owner marks a change work in progress or ready for review; emits wip-state-changed. */
  setWip(number: number, wip: boolean): void {
    const change = this.change(number);
    change.wip = wip;
    change.updated = gerritDate();
    const tag = `autogenerated:gerrit:${wip ? 'setWorkInProgress' : 'setReadyForReview'}`;
    this.addMessage(change, change.owner, wip ? 'Set Work In Progress' : 'Set Ready For Review', tag);
    const event = this.eventChange(change);
    this.emit({ type: 'wip-state-changed', changer: change.owner, ...event, change: { ...event.change, wip } });
  }

  /**
   * Someone edits the change's hashtags; emits hashtags-changed (no patch set, `added`/`removed`
   * only when not empty, as Gerrit sends it) and writes Gerrit's message (`Hashtag added: ci`).
   */
  setHashtags(number: number, username: string, edit: { add?: string[]; remove?: string[] }): void {
    const change = this.change(number);
    const before = change.hashtags ?? [];
    const added = (edit.add ?? []).filter((tag) => !before.includes(tag)).sort();
    const removed = (edit.remove ?? []).filter((tag) => before.includes(tag)).sort();
    change.hashtags = [...before.filter((tag) => !removed.includes(tag)), ...added].sort();
    change.updated = gerritDate();
    const line = (action: string, tags: string[]) =>
      tags.length === 0 ? [] : [`Hashtag${tags.length > 1 ? 's' : ''} ${action}: ${tags.join(', ')}`];
    const editor = this.accountOf(username);
    const text = [...line('added', added), ...line('removed', removed)].join('\n');
    this.addMessage(change, editor, text, 'autogenerated:gerrit:setHashtag');
    const { patchSet: _none, ...event } = this.eventChange(change);
    this.emit({
      type: 'hashtags-changed',
      editor,
      ...(added.length > 0 ? { added } : {}),
      ...(removed.length > 0 ? { removed } : {}),
      hashtags: change.hashtags,
      ...event,
    });
  }

  /**
   * `remover` deletes `voter`'s vote of `label` on the newest patch set; emits vote-deleted (the
   * voter's votes, the deleted one 0 with its `oldValue`) and writes Gerrit's message (`Removed
   * Code-Review+2 by <GERRIT_ACCOUNT_1001>`, the voter named by template).
   */
  deleteVote(number: number, voter: string, label: string, remover: string): void {
    const change = this.change(number);
    const reviewer = this.accountOf(voter);
    const deleted = change.votes.find((v) => v.label === label && v.by.username === voter);
    if (deleted === undefined) {
      throw new Error(`${voter} has no ${label} vote on change ${number}`);
    }
    change.votes = change.votes.filter((v) => v !== deleted);
    change.updated = gerritDate();
    const message = `Removed ${voteText(label, deleted.value)} by <GERRIT_ACCOUNT_${reviewer._account_id}>\n`;
    const by = this.accountOf(remover);
    this.addMessage(change, by, message, 'autogenerated:gerrit:deleteVote');
    (change.messages.at(-1) as FakeChange['messages'][number]).accounts_in_message = [reviewer];
    const approvals = [
      ...change.votes
        .filter((v) => v.by.username === voter)
        .map((v) => ({ type: v.label, description: v.label, value: String(v.value) })),
      { type: label, description: label, value: '0', oldValue: String(deleted.value) },
    ];
    const event = this.eventChange(change);
    this.emit({ type: 'vote-deleted', reviewer, remover: by, approvals, comment: message, ...event });
  }

  /** Someone pushes a commit straight to a branch (no change); emits ref-updated. */
  async push(project: string, branch: string, files: FileMap, message = 'Direct push'): Promise<string> {
    const { oldrev, newrev } = await pushToBranch(this.root, project, branch, files, message);
    this.emit({
      type: 'ref-updated',
      submitter: this.accountOf('pusher'),
      refUpdate: { oldRev: oldrev, newRev: newrev, refName: `refs/heads/${branch}`, project },
      eventCreatedOn: Math.floor(Date.now() / 1000),
    });
    return newrev;
  }

  /** A review posted over REST (as `user`): votes, a message headed by them; emits comment-added. */
  postReview(
    change: FakeChange,
    patchset: string,
    review: Omit<FakeChange['reviews'][number], 'by' | 'patchset'>,
  ): void {
    const by = this.accountOf(this.user);
    change.reviews.push({ by: this.user, patchset, ...review });
    const approvals = this.vote(change, by, review.labels ?? {});
    // Gerrit heads the message with the votes cast (`Patch Set 1: Verified+1`).
    const votes = Object.entries(review.labels ?? {}).map(([l, v]) => ` ${voteText(l, v)}`);
    const header = `Patch Set ${patchset}:${votes.join('')}`;
    this.addMessage(change, by, review.message ? `${header}\n\n${review.message}` : header);
    this.emit({
      type: 'comment-added',
      author: by,
      approvals,
      comment: review.message ?? '',
      ...this.eventChange(change),
    });
  }

  /** A review message at the time of the votes just cast (the change's `updated`). */
  private addMessage(change: FakeChange, author: Account, message: string, tag?: string): void {
    change.messages.push({
      author,
      date: change.updated,
      message,
      _revision_number: change.patchsets.length,
      ...(tag === undefined ? {} : { tag }),
    });
  }

  /** Votes cast now: the change's `updated` is their time. */
  private vote(change: FakeChange, by: Account, labels: Record<string, number>) {
    change.updated = gerritDate();
    return Object.entries(labels).map(([label, value]) => {
      const before = change.votes.find((v) => v.label === label && v.by.username === by.username);
      change.votes = change.votes.filter((v) => v !== before);
      change.votes.push({ label, value, by, date: change.updated });
      const oldValue = before?.value ?? 0;
      return {
        type: label,
        description: label,
        value: String(value),
        ...(oldValue === value ? {} : { oldValue: String(oldValue) }),
      };
    });
  }

  private eventChange(change: FakeChange) {
    return eventChange(change, this.url);
  }

  emit(event: Record<string, unknown>): void {
    const line = JSON.stringify(event);
    this.events.push(line);
    this.eventsLog.lines.push({ line, at: Date.now() });
    this.ssh.send(line);
  }

  /** A change as Gerrit's REST API answers (test/helpers/fake-gerrit/change-json.ts). */
  changeJson(change: FakeChange, options: string[] = []): Record<string, unknown> {
    return changeJson(change, this.labels, options);
  }

  /** Gerrit's submit of a change's newest patch set (REST); emits change-merged and ref-updated. */
  async submit(change: FakeChange): Promise<unknown> {
    const refusal = submitRefusal(change, this.labels);
    if (refusal !== null) {
      return `409|Change ${change.number}: ${refusal}`;
    }
    if (change.refuseSubmit !== null) {
      const message = change.refuseSubmit;
      change.refuseSubmit = null;
      return `409|${message}`;
    }
    const current = change.patchsets.at(-1);
    if (!current) {
      return '409|no patch set';
    }
    const { oldrev, newrev } = await submitRevision(this.root, change.project, change.branch, current.revision);
    change.status = 'MERGED';
    change.updated = gerritDate();
    change.submitted = change.updated;
    this.submitted.push(`${change.number},${current.number}`);
    const submitter = this.accountOf(this.user);
    this.emit({ type: 'change-merged', submitter, newRev: newrev, ...this.eventChange(change) });
    this.emit({
      type: 'ref-updated',
      submitter,
      refUpdate: { oldRev: oldrev, newRev: newrev, refName: `refs/heads/${change.branch}`, project: change.project },
      eventCreatedOn: Math.floor(Date.now() / 1000),
    });
    return this.changeJson(change);
  }
}
