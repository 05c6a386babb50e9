/**
 * A fake Gerrit for tests (docs/gerrit.md#the-fake-gerrit-for-tests): the REST endpoints the
 * driver uses (with Gerrit's `)]}'` prefix and HTTP basic authentication under `/a/`), git over
 * HTTP (`git http-backend`) of real bare repositories with `refs/changes/NN/N/P`, and an SSH
 * server streaming events (test/helpers/fake-ssh-server.ts). It records every request, review
 * and submit; tests upload patch sets and vote through its methods, which emit the events Gerrit
 * would.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serveGit } from '../fake-github/git-http';
import { queryChanges, related } from './queries';
import { labelsJson, submitRecordsJson, submitRefusal, submitRequirementsJson, type LabelSettings } from './labels';
import {
  branchHead,
  createProject,
  listBranches,
  pushPatchset,
  pushToBranch,
  submitRevision,
  type FileMap,
} from './repos';
import { FakeSshServer } from '../fake-ssh-server';

export interface Account {
  username: string;
  email: string;
  name: string;
  _account_id: number;
}

export interface FakeChange {
  number: number;
  project: string;
  branch: string;
  changeId: string;
  subject: string;
  status: 'NEW' | 'MERGED' | 'ABANDONED';
  owner: Account;
  patchsets: Array<{ number: number; revision: string; ref: string; message: string; parent: string; created: string }>;
  votes: Array<{ label: string; value: number; by: Account; date: string }>;
  /** Review messages (votes and comments, from tests and from Sluice), in order. */
  messages: Array<{ author: Account; date: string; message: string; _revision_number: number; tag?: string }>;
  /** When the change last changed, and when it was submitted (Gerrit's time format). */
  updated: string;
  submitted?: string;
  /** Reviews posted over REST, in order. */
  reviews: Array<{ by: string; patchset: string; message?: string; labels?: Record<string, number>; notify?: string }>;
  /** Set by a test: the next submit is refused with this message (409). */
  refuseSubmit: string | null;
  /** The change's topic, if any. */
  topic?: string;
  /** Work in progress. */
  wip?: boolean;
}

let accountIds = 1000;
export function account(username: string): Account {
  return { username, email: `${username}@example.com`, name: username, _account_id: accountIds++ };
}

/** Gerrit's time format (UTC, nanoseconds). */
function gerritDate(date = new Date()): string {
  return `${date.toISOString().replace('T', ' ').replace('Z', '')}000000`;
}

/** A vote as Gerrit writes it in a review message: `Code-Review+2`, `Verified-1`, `-Workflow` (removed). */
function voteText(label: string, value: number): string {
  return value === 0 ? `-${label}` : `${label}${value > 0 ? '+' : ''}${value}`;
}

export class FakeGerrit {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'fake-gerrit-'));
  readonly changes: FakeChange[] = [];
  readonly requests: Array<{ method: string; path: string; body: unknown; at: number }> = [];
  /** Submits, in order: `<number>,<patchset>`. */
  readonly submitted: string[] = [];
  /** Every event line emitted. */
  readonly events: string[] = [];
  readonly ssh: FakeSshServer;
  /** Labels listed without votes, optional labels and submit requirements (test/helpers/fake-gerrit/labels.ts). */
  readonly labels: LabelSettings = { listed: [], optional: [], requirements: [], rules: [] };
  /** What `GET /config/server/version` answers. */
  version = '3.9.1';
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
    this.ssh = new FakeSshServer(user, clientPublicKey, this.root);
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
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

  /** Make change requests wait until the returned function is called (a slow Gerrit). */
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

  /** The owner sets (or, with undefined, removes) the change's topic; emits topic-changed. */
  setTopic(number: number, topic: string | undefined): void {
    const change = this.change(number);
    const oldTopic = change.topic;
    if (topic === undefined) {
      delete change.topic;
    } else {
      change.topic = topic;
    }
    change.updated = gerritDate();
    this.emit({
      type: 'topic-changed',
      changer: change.owner,
      ...(oldTopic === undefined ? {} : { oldTopic }),
      ...this.eventChange(change),
    });
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
    const current = change.patchsets.at(-1);
    return {
      change: {
        project: change.project,
        branch: change.branch,
        id: change.changeId,
        number: change.number,
        subject: change.subject,
        owner: change.owner,
        url: `${this.url}/c/${change.project}/+/${change.number}`,
        status: change.status,
        ...(change.topic === undefined ? {} : { topic: change.topic }),
      },
      patchSet: { number: current?.number, revision: current?.revision, ref: current?.ref },
      eventCreatedOn: Math.floor(Date.now() / 1000),
    };
  }

  emit(event: Record<string, unknown>): void {
    const line = JSON.stringify(event);
    this.events.push(line);
    this.ssh.send(line);
  }

  /** A change as Gerrit's REST API answers with ALL_REVISIONS, ALL_COMMITS, DETAILED_LABELS, DETAILED_ACCOUNTS. */
  changeJson(change: FakeChange, options: string[] = []): Record<string, unknown> {
    return {
      id: `${encodeURIComponent(change.project)}~${change.number}`,
      project: change.project,
      branch: change.branch,
      change_id: change.changeId,
      subject: change.subject,
      status: change.status,
      hashtags: [],
      ...(change.topic === undefined ? {} : { topic: change.topic }),
      _number: change.number,
      owner: change.owner,
      updated: change.updated,
      ...(change.submitted === undefined ? {} : { submitted: change.submitted }),
      current_revision: change.patchsets.at(-1)?.revision,
      revisions: Object.fromEntries(
        change.patchsets.map((p) => [
          p.revision,
          {
            _number: p.number,
            ref: p.ref,
            created: p.created,
            uploader: change.owner,
            commit: { message: p.message, parents: [{ commit: p.parent }] },
          },
        ]),
      ),
      labels: labelsJson(change, this.labels),
      messages: change.messages,
      ...(change.wip ? { work_in_progress: true } : {}),
      ...(options.includes('SUBMITTABLE') ? { submittable: submitRefusal(change, this.labels) === null } : {}),
      ...(options.includes('SUBMIT_REQUIREMENTS')
        ? { submit_requirements: submitRequirementsJson(change, this.labels) }
        : {}),
      ...(this.labels.rules.length > 0 ? { submit_records: submitRecordsJson(change, this.labels) } : {}),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const auth = req.headers.authorization ?? '';
    const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    if (!url.pathname.startsWith('/a/')) {
      res.writeHead(404).end('Not found');
      return;
    }
    if (!/^\/a\/(changes|projects|config)\//.test(url.pathname)) {
      const gitUrl = new URL(url.toString());
      gitUrl.pathname = url.pathname.slice(2);
      await serveGit(
        this.root,
        req,
        res,
        gitUrl,
        (password) => decoded === `${this.user}:${password}` && password === this.password,
      );
      return;
    }
    if (decoded !== `${this.user}:${this.password}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="Gerrit Code Review"' }).end('Unauthorized');
      return;
    }
    if (this.held !== null && url.pathname.startsWith('/a/changes/')) {
      this.heldPaths.push(decodeURIComponent(url.pathname));
      await this.held;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    this.requests.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, body, at: Date.now() });
    const answer = await this.route(req.method ?? 'GET', url, body);
    if (typeof answer === 'string' || answer === undefined) {
      const [status, message] = answer === undefined ? [404, 'Not found'] : answer.split('|', 2);
      res.writeHead(Number(status), { 'content-type': 'text/plain' }).end(`${message}\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    const json = url.pathname === '/a/config/server/version' ? (answer as string[])[0] : answer;
    res.end(`)]}'\n${JSON.stringify(json)}`);
  }

  /** A JSON answer, `<status>|<text>` for an error, undefined for 404. */
  private async route(method: string, url: URL, body: unknown): Promise<unknown> {
    const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
    const options = url.searchParams.getAll('o');
    if (parts.join('/') === 'config/server/version' && method === 'GET') {
      return [this.version]; // a JSON string, sent unwrapped below
    }
    if (parts[0] === 'projects' && parts[2] === 'branches' && !parts[3] && method === 'GET') {
      return (await listBranches(this.root, parts[1]).catch(() => undefined)) ?? undefined;
    }
    if (parts[0] === 'projects' && parts[2] === 'branches' && method === 'GET') {
      const revision = await branchHead(this.root, parts[1], parts[3]).catch(() => undefined);
      return revision === undefined ? undefined : { ref: `refs/heads/${parts[3]}`, revision };
    }
    if (parts[0] !== 'changes') {
      return undefined;
    }
    if (parts[1] === '' && method === 'GET') {
      return queryChanges(this.changes, url.searchParams.get('q') ?? '').map((c) => this.changeJson(c, options));
    }
    const number = Number(parts[1].split('~').at(-1));
    const change = this.changes.find((c) => c.number === number);
    if (!change) {
      return undefined;
    }
    if (parts.length === 2 && method === 'GET') {
      return this.changeJson(change, options);
    }
    if (parts[2] === 'revisions' && parts[4] === 'review' && method === 'POST') {
      const review = body as { message?: string; labels?: Record<string, number>; notify?: string };
      change.reviews.push({ by: this.user, patchset: parts[3], ...review });
      const approvals = this.vote(change, this.accountOf(this.user), review.labels ?? {});
      // Gerrit heads the message with the votes cast (`Patch Set 1: Verified+1`).
      const votes = Object.entries(review.labels ?? {}).map(([l, v]) => ` ${voteText(l, v)}`);
      const header = `Patch Set ${parts[3]}:${votes.join('')}`;
      this.addMessage(change, this.accountOf(this.user), review.message ? `${header}\n\n${review.message}` : header);
      this.emit({
        type: 'comment-added',
        author: this.accountOf(this.user),
        approvals,
        comment: review.message ?? '',
        ...this.eventChange(change),
      });
      return { labels: review.labels ?? {} };
    }
    if (parts[2] === 'revisions' && parts[4] === 'related' && method === 'GET') {
      const patchset = change.patchsets.find((p) => p.revision === parts[3] || String(p.number) === parts[3]);
      return patchset === undefined ? undefined : related(this.changes, patchset.revision);
    }
    if (parts[2] === 'submit' && method === 'POST') {
      return this.submit(change);
    }
    return undefined;
  }

  private async submit(change: FakeChange): Promise<unknown> {
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
