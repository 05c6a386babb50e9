/**
 * A fake GitLab for tests (docs/gitlab.md#the-fake-gitlab-for-tests): an HTTP server on port 0
 * with the REST API v4 calls the driver makes (`PRIVATE-TOKEN` checked), the projects' real bare
 * repositories over git's smart HTTP (basic credentials with the token as password; the fake
 * GitHub's `git http-backend` runner, test/helpers/fake-github/git-http.ts), and webhook
 * deliveries (`X-Gitlab-Token`, `X-Gitlab-Event`, a fresh `X-Gitlab-Event-UUID`) of what a test
 * does: open or update a merge request, approve, label, comment; merges really merge and send a
 * push and a merge hook. Branches carry GitLab's `protected` flag (`protect`); `failOnce` makes
 * the next matching API call answer an error (before or after doing its work). `startSsh` adds git over SSH (test/helpers/fake-ssh-server.ts): user
 * `git` with one key, `git-upload-pack` of the same repositories.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  listBranches,
  type FakeMergeRequest,
  type FakeProject,
  type GitLabDelivery,
  type GitLabFault,
} from './fake-gitlab-model';
import { FakeSshServer } from './fake-ssh-server';
import { serveGit } from './fake-github/git-http';
import { commitFiles, createBareRepo, mergePull, revParse, type FileMap } from './fake-github/repos';

export type { FakeMergeRequest, FakeProject, GitLabDelivery, GitLabFault };

export class FakeGitLab {
  readonly projects = new Map<string, FakeProject>();
  readonly deliveries: GitLabDelivery[] = [];
  readonly requests: Array<{ method: string; path: string; body: Record<string, unknown> | null }> = [];
  readonly faults: GitLabFault[] = [];
  /** The user the API token belongs to (`GET /user`), the author of notes and approvals it makes. */
  readonly apiUser = 'sluice';
  /** Merges are refused with this message (HTTP 405) while set. */
  refuseMerge: string | null = null;
  private readonly root = mkdtempSync(path.join(os.tmpdir(), 'fake-gitlab-'));
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private webhook: { url: string; token: string } | null = null;
  url = '';
  /** Requests to the repositories over HTTP. */
  gitHttpRequests = 0;
  /** The SSH endpoint, once `startSsh` started it. */
  ssh: FakeSshServer | null = null;

  constructor(readonly token: string) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Serve the repositories over SSH too, to user `git` with the key `clientPublicKey`; `ssh://git@127.0.0.1:<port>` is its clone URL. */
  async startSsh(clientPublicKey: string): Promise<FakeSshServer> {
    this.ssh = new FakeSshServer('git', clientPublicKey, path.join(this.root, 'repos'));
    await this.ssh.start();
    return this.ssh;
  }

  async stop(): Promise<void> {
    await this.ssh?.stop();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.root, { recursive: true, force: true });
  }

  setWebhook(url: string, token: string): void {
    this.webhook = { url, token };
  }

  async createProject(name: string, files: FileMap): Promise<FakeProject> {
    const dir = await createBareRepo(path.join(this.root, 'repos'), name);
    const project: FakeProject = {
      path: name,
      dir,
      defaultBranch: 'main',
      mrs: new Map(),
      protectedBranches: new Set(['main']),
    };
    await commitFiles(project, this.root, { parent: null, files, message: 'Initial commit', ref: 'refs/heads/main' });
    this.projects.set(name, project);
    return project;
  }

  project(name: string): FakeProject {
    const project = this.projects.get(name);
    if (!project) {
      throw new Error(`no project ${name}`);
    }
    return project;
  }

  mr(name: string, iid: number): FakeMergeRequest {
    const mr = this.project(name).mrs.get(iid);
    if (!mr) {
      throw new Error(`no merge request ${name}!${iid}`);
    }
    return mr;
  }

  /** Open a merge request of one commit with `files` on the target branch's head; sends its open hook. */
  async openMergeRequest(
    name: string,
    options: { title: string; description?: string; files: FileMap; author?: string; targetBranch?: string },
  ): Promise<FakeMergeRequest> {
    const project = this.project(name);
    const iid = project.mrs.size + 1;
    const targetBranch = options.targetBranch ?? 'main';
    const headSha = await commitFiles(project, this.root, {
      parent: `refs/heads/${targetBranch}`,
      files: options.files,
      message: options.title,
      ref: `refs/merge-requests/${iid}/head`,
    });
    const mr: FakeMergeRequest = {
      iid,
      title: options.title,
      description: options.description ?? '',
      targetBranch,
      headSha,
      state: 'opened',
      labels: [],
      approvedBy: [],
      notes: [],
      noteAuthors: [],
      draft: /^draft:/i.test(options.title),
      author: options.author ?? 'dev',
      mergeCommitSha: null,
      pipeline: project.pipelineRequired ? 'running' : null,
      autoMerge: false,
    };
    project.mrs.set(iid, mr);
    await this.mrHook(project, mr, 'open');
    return mr;
  }

  async approve(name: string, iid: number, user: string): Promise<void> {
    const mr = this.mr(name, iid);
    mr.approvedBy.push(user);
    await this.mrHook(this.project(name), mr, 'approved', user);
  }

  async unapprove(name: string, iid: number, user: string): Promise<void> {
    const mr = this.mr(name, iid);
    mr.approvedBy = mr.approvedBy.filter((u) => u !== user);
    await this.mrHook(this.project(name), mr, 'unapproved', user);
  }

  /** `dev` adds a label (`remove`: takes it off); sends the update hook with the label change. */
  async label(name: string, iid: number, label: string, remove = false): Promise<void> {
    const mr = this.mr(name, iid);
    const previous = [...mr.labels];
    mr.labels = remove ? mr.labels.filter((l) => l !== label) : [...mr.labels, label];
    await this.mrHook(this.project(name), mr, 'update', 'dev', {
      labels: { previous: previous.map((title) => ({ title })), current: mr.labels.map((title) => ({ title })) },
    });
  }

  /** A new commit with `files` on the merge request's head; sends the update hook with `oldrev`. */
  async pushToMergeRequest(name: string, iid: number, files: FileMap): Promise<void> {
    const project = this.project(name);
    const mr = this.mr(name, iid);
    const oldrev = mr.headSha;
    mr.headSha = await commitFiles(project, this.root, {
      parent: `refs/merge-requests/${iid}/head`,
      files,
      message: `${mr.title} (more)`,
      ref: `refs/merge-requests/${iid}/head`,
    });
    await this.mrHook(project, mr, 'update', 'dev', {}, { oldrev });
  }

  /** `dev` edits the description; sends the update hook with `changes.description`. */
  async editDescription(name: string, iid: number, description: string): Promise<void> {
    const mr = this.mr(name, iid);
    const previous = mr.description;
    mr.description = description;
    await this.mrHook(this.project(name), mr, 'update', 'dev', { description: { previous, current: description } });
  }

  /** A user merges the merge request in GitLab's web page (the push and merge hooks follow). */
  async mergeByUser(name: string, iid: number): Promise<void> {
    if (!(await this.mergeNow(this.project(name), this.mr(name, iid), false))) {
      throw new Error(`cannot merge ${name}!${iid}`);
    }
  }

  /** A branch `branch` of one commit with `files` on main; `protect` makes it protected. */
  async createBranch(name: string, branch: string, files: FileMap, protect = false): Promise<void> {
    const project = this.project(name);
    await commitFiles(project, this.root, {
      parent: 'refs/heads/main',
      files,
      message: `Branch ${branch}`,
      ref: `refs/heads/${branch}`,
    });
    if (protect) {
      project.protectedBranches.add(branch);
    }
  }

  /** `user` writes a note on the merge request; sends its note hook. */
  async comment(name: string, iid: number, user: string, note: string): Promise<GitLabDelivery> {
    const project = this.project(name);
    const mr = this.mr(name, iid);
    mr.notes.push(note);
    mr.noteAuthors.push(user);
    return this.send('Note Hook', {
      object_kind: 'note',
      event_type: 'note',
      user: { username: user },
      project: { path_with_namespace: project.path, web_url: `${this.url}/${project.path}` },
      object_attributes: { note, noteable_type: 'MergeRequest' },
      merge_request: { ...this.mrJson(project, mr), last_commit: { id: mr.headSha } },
    });
  }

  mrJson(project: FakeProject, mr: FakeMergeRequest): Record<string, unknown> {
    return {
      iid: mr.iid,
      state: mr.state,
      title: mr.title,
      description: mr.description,
      web_url: `${this.url}/${project.path}/-/merge_requests/${mr.iid}`,
      author: { username: mr.author },
      target_branch: mr.targetBranch,
      source_branch: `mr-${mr.iid}`,
      sha: mr.headSha,
      labels: mr.labels,
      draft: mr.draft,
      work_in_progress: mr.draft,
      merge_commit_sha: mr.mergeCommitSha,
      head_pipeline: mr.pipeline === null ? null : { status: mr.pipeline },
      merge_when_pipeline_succeeds: mr.autoMerge,
      auto_merge_enabled: mr.autoMerge,
    };
  }

  private async mrHook(
    project: FakeProject,
    mr: FakeMergeRequest,
    action: string,
    user = 'dev',
    changes: Record<string, unknown> = {},
    attributes: Record<string, unknown> = {},
  ): Promise<GitLabDelivery> {
    return this.send('Merge Request Hook', {
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { username: user },
      project: { path_with_namespace: project.path, web_url: `${this.url}/${project.path}` },
      object_attributes: {
        ...this.mrJson(project, mr),
        action,
        target_branch: mr.targetBranch,
        last_commit: { id: mr.headSha },
        url: `${this.url}/${project.path}/-/merge_requests/${mr.iid}`,
        ...attributes,
      },
      labels: mr.labels.map((title) => ({ title })),
      changes,
    });
  }

  /** Send a webhook; `token` overrides the configured one (a wrong token), `uuid` repeats a delivery. */
  async send(
    event: string,
    payload: Record<string, unknown>,
    options: { token?: string; uuid?: string } = {},
  ): Promise<GitLabDelivery> {
    if (!this.webhook) {
      throw new Error('no webhook target set');
    }
    const uuid = options.uuid ?? randomUUID();
    const res = await fetch(this.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-gitlab-event': event,
        'x-gitlab-token': options.token ?? this.webhook.token,
        'x-gitlab-event-uuid': uuid,
      },
      body: JSON.stringify(payload),
    });
    const delivery = { uuid, event, payload, status: res.status, body: await res.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  private async readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? null : (JSON.parse(text) as Record<string, unknown>);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (!url.pathname.startsWith('/api/v4/')) {
      this.gitHttpRequests += 1;
      await serveGit(path.join(this.root, 'repos'), req, res, url, (token) => token === this.token);
      return;
    }
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers['private-token'] !== this.token) {
      reply(401, { message: '401 Unauthorized' });
      return;
    }
    const body = await this.readJson(req);
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, body });
    const fault = this.faults.findIndex((f) => f.method === method && url.pathname.endsWith(f.path));
    if (fault >= 0) {
      const [taken] = this.faults.splice(fault, 1);
      const answer = () => {
        res.writeHead(taken.status, {
          'content-type': 'application/json',
          ...(taken.retryAfter === undefined ? {} : { 'retry-after': String(taken.retryAfter) }),
        });
        res.end(JSON.stringify({ message: `${taken.status} injected` }));
      };
      if (!taken.afterWork) {
        answer();
        return;
      }
      await this.route(url, method, body, answer);
      return;
    }
    await this.route(url, method, body, reply);
  }

  private async route(
    url: URL,
    method: string,
    body: Record<string, unknown> | null,
    reply: (status: number, body: unknown) => void,
  ): Promise<void> {
    if (url.pathname === '/api/v4/user') {
      reply(200, { id: 1, username: this.apiUser });
      return;
    }
    const branches = /^\/api\/v4\/projects\/([^/]+)\/repository\/branches(?:\/(.+))?$/.exec(url.pathname);
    if (branches) {
      const project = this.projects.get(decodeURIComponent(branches[1]));
      const [status, answer] = project
        ? await listBranches(project, url, branches[2] && decodeURIComponent(branches[2]))
        : [404, { message: '404 Project Not Found' }];
      reply(status, answer);
      return;
    }
    const match = /^\/api\/v4\/projects\/([^/]+)\/merge_requests(?:\/(\d+))?(?:\/([a-z]+))?$/.exec(url.pathname);
    const project = match ? this.projects.get(decodeURIComponent(match[1])) : undefined;
    if (!match || !project) {
      reply(404, { message: '404 Project Not Found' });
      return;
    }
    if (match[2] === undefined) {
      const open = [...project.mrs.values()].filter((mr) => mr.state === 'opened');
      reply(
        200,
        open.map((mr) => this.mrJson(project, mr)),
      );
      return;
    }
    const mr = project.mrs.get(Number(match[2]));
    if (!mr) {
      reply(404, { message: '404 Not found' });
      return;
    }
    const action = `${method} ${match[3] ?? ''}`;
    if (action === 'GET ') {
      reply(200, this.mrJson(project, mr));
    } else if (action === 'GET approvals') {
      reply(200, {
        approved: mr.approvedBy.length > 0,
        approved_by: mr.approvedBy.map((username) => ({ user: { username } })),
      });
    } else if (action === 'POST notes') {
      mr.notes.push(String(body?.body ?? ''));
      mr.noteAuthors.push(this.apiUser);
      reply(201, { id: mr.notes.length, body: body?.body });
    } else if (action === 'GET notes') {
      // Newest first, as GitLab lists them by default.
      const notes = mr.notes.map((note, i) => ({
        id: i + 1,
        body: note,
        author: { username: mr.noteAuthors[i] },
        system: false,
      }));
      reply(200, notes.reverse());
    } else if (action === 'POST approve' || action === 'POST unapprove') {
      mr.approvedBy = mr.approvedBy.filter((u) => u !== 'sluice');
      if (action === 'POST approve') {
        mr.approvedBy.push('sluice');
      }
      reply(201, { approved_by: mr.approvedBy.map((username) => ({ user: { username } })) });
    } else if (action === 'PUT ') {
      const add = String(body?.add_labels ?? '')
        .split(',')
        .filter(Boolean);
      const remove = String(body?.remove_labels ?? '')
        .split(',')
        .filter(Boolean);
      mr.labels = [...mr.labels.filter((l) => !remove.includes(l)), ...add.filter((l) => !mr.labels.includes(l))];
      reply(200, this.mrJson(project, mr));
    } else if (action === 'PUT merge') {
      await this.merge(project, mr, body, reply);
    } else {
      reply(404, { message: '404 Not found' });
    }
  }

  private async merge(
    project: FakeProject,
    mr: FakeMergeRequest,
    body: Record<string, unknown> | null,
    reply: (status: number, body: unknown) => void,
  ): Promise<void> {
    if (this.refuseMerge !== null || mr.state !== 'opened') {
      reply(405, { message: this.refuseMerge ?? '405 Method Not Allowed' });
      return;
    }
    if (body?.sha !== undefined && body.sha !== mr.headSha) {
      reply(409, { message: 'SHA does not match HEAD of source branch' });
      return;
    }
    if (project.pipelineRequired && mr.pipeline !== 'success') {
      const auto = body?.auto_merge === true || body?.merge_when_pipeline_succeeds === true;
      if (auto && mr.pipeline === 'running') {
        mr.autoMerge = true;
        mr.squashOnMerge = body?.squash === true;
        reply(200, this.mrJson(project, mr));
      } else {
        reply(405, { message: '405 Method Not Allowed' });
      }
      return;
    }
    const merged = await this.mergeNow(project, mr, body?.squash === true);
    if (merged) {
      reply(200, this.mrJson(project, mr));
    } else {
      reply(406, { message: 'Branch cannot be merged' });
    }
  }

  /** The head pipeline ends; a merge waiting for it (auto-merge) is done on success, dropped otherwise. */
  async finishPipeline(name: string, iid: number, status: 'success' | 'failed'): Promise<void> {
    const project = this.project(name);
    const mr = this.mr(name, iid);
    mr.pipeline = status;
    const waiting = mr.autoMerge;
    mr.autoMerge = false;
    if (waiting && status === 'success') {
      await this.mergeNow(project, mr, mr.squashOnMerge === true);
    }
  }

  /** Merge in the bare repository and send the push and merge hooks; false on a conflict. */
  private async mergeNow(project: FakeProject, mr: FakeMergeRequest, squash: boolean): Promise<boolean> {
    const merged = await mergePull(
      project,
      { base: mr.targetBranch, headSha: mr.headSha },
      squash ? 'squash' : 'merge',
      this.root,
      mr.title,
    );
    if ('error' in merged) {
      return false;
    }
    mr.state = 'merged';
    mr.mergeCommitSha = merged.sha;
    void this.send('Push Hook', {
      object_kind: 'push',
      ref: `refs/heads/${mr.targetBranch}`,
      before: merged.before,
      after: merged.sha,
      user_username: 'sluice',
      project: { path_with_namespace: project.path },
    }).then(() => this.mrHook(project, mr, 'merge', 'sluice'));
    return true;
  }

  /** The sha a branch of a project points at. */
  branchSha(name: string, branch: string): Promise<string | null> {
    return revParse(this.project(name), `refs/heads/${branch}`);
  }
}
