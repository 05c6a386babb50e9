/**
 * A fake GitHub (github.com or Enterprise) for tests (docs/github.md#the-fake-github-for-tests):
 * the REST endpoints the driver calls under `/api/v3`, real bare repositories served over smart
 * HTTP at `/<owner>/<repo>`, and webhooks signed with `X-Hub-Signature-256` sent to a target.
 * State lives in memory; a test drives it through the methods (open a pull request, push to
 * it, review, label, comment) and reads what the driver reported.
 */
import { createHmac, createVerify, randomUUID, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { countByKind, writeAnswer, type RequestCount } from './conditional';
import { serveGit } from './git-http';
import { pullJson, repoJson } from './json';
import {
  commitFiles,
  createBareRepo,
  mergePull,
  revParse,
  type FakePull,
  type FakeRepo,
  type FileMap,
  type MergeMethod,
} from './repos';
import { handleRepoRoute } from './routes';

export interface FakeGitHubOptions {
  /** GitHub App: its id and the PEM public key of its private key (app JWTs are verified with it). */
  appId?: number;
  appPublicKey?: string;
  /** A personal access token the fake accepts. */
  personalToken?: string;
  /** Lifetime of installation tokens (seconds; GitHub: 3600). */
  tokenTtlSeconds?: number;
  /** Clock of token expiry (defaults to the real time). */
  now?: () => Date;
}

export interface Delivery {
  id: string;
  event: string;
  payload: Record<string, unknown>;
  status: number;
  body: string;
}

export interface ApiRequest {
  method: string;
  path: string;
  at: number;
  status: number;
  body: unknown;
  /** The `Authorization` header's token ('' without one). */
  token: string;
}

export class FakeGitHub {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'fake-github-'));
  readonly repos = new Map<string, FakeRepo>();
  readonly requests: ApiRequest[] = [];
  readonly deliveries: Delivery[] = [];
  /** Git requests over smart HTTP with the token they carried and its installation (null: a personal token). */
  readonly gitAccess: Array<{ path: string; installationId: number | null; token: string }> = [];
  readonly tokens = new Map<string, { expiresAt: Date; installationId: number | null }>();
  private server: Server | null = null;
  private webhook: { url: string; secret: string } | null = null;
  private rateLimited: { remaining: number; mode: 'retry-after' | 'reset'; seconds: number } | null = null;
  /** API calls still to be answered with a server error (`failNext`). */
  private failing = { remaining: 0, status: 502 };
  private nextId = 1;
  url = '';

  constructor(private readonly options: FakeGitHubOptions = {}) {
    if (options.personalToken) {
      this.tokens.set(options.personalToken, { expiresAt: new Date(8.64e15), installationId: null });
    }
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await this.settled();
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
    rmSync(this.root, { recursive: true, force: true });
  }

  private target(): { url: string; secret: string } {
    if (!this.webhook) {
      throw new Error('no webhook target set');
    }
    return this.webhook;
  }

  /** Where webhooks go, and the secret they are signed with. */
  setWebhook(url: string, secret: string): void {
    this.webhook = { url, secret };
  }

  /** The next `requests` API calls are refused as rate limited (429 + Retry-After, or 403 + X-RateLimit-Reset). */
  rateLimit(requests: number, mode: 'retry-after' | 'reset', seconds: number): void {
    this.rateLimited = { remaining: requests, mode, seconds };
  }

  /** The next `requests` API calls are answered with `status` (default 502 Bad Gateway), as GitHub does at times. */
  failNext(requests: number, status = 502): void {
    this.failing = { remaining: requests, status };
  }

  id(): number {
    return this.nextId++;
  }

  /** API requests from index `since` of `requests` on, by kind (`GET /pulls/:n/reviews`): full answers and 304s. */
  requestCounts(since = 0): Map<string, RequestCount> {
    return countByKind(this.requests, since);
  }

  async createRepo(fullName: string, files: FileMap, options: { installationId?: number } = {}): Promise<FakeRepo> {
    const dir = await createBareRepo(this.root, fullName);
    const repo: FakeRepo = {
      fullName,
      dir,
      defaultBranch: 'main',
      pulls: new Map(),
      statuses: new Map(),
      checkRuns: [],
      protected: new Map(),
      permissions: new Map(),
      installationId: options.installationId ?? 1,
    };
    this.repos.set(fullName, repo);
    await commitFiles(repo, this.root, { parent: null, files, message: 'Initial commit', ref: 'refs/heads/main' });
    return repo;
  }

  repo(fullName: string): FakeRepo {
    const repo = this.repos.get(fullName);
    if (!repo) {
      throw new Error(`no fake repository ${fullName}`);
    }
    return repo;
  }

  pull(fullName: string, number: number): FakePull {
    const pull = this.repo(fullName).pulls.get(number);
    if (!pull) {
      throw new Error(`no pull request ${fullName}#${number}`);
    }
    return pull;
  }

  /** Open a pull request whose head commit adds `files` on top of the base branch; sends `pull_request opened`. */
  async openPull(
    fullName: string,
    options: { title: string; body?: string; files: FileMap; base?: string; user?: string; draft?: boolean },
  ): Promise<FakePull> {
    const repo = this.repo(fullName);
    const number = repo.pulls.size + 1;
    const base = options.base ?? repo.defaultBranch;
    const headRef = `feature-${number}`;
    const message = options.body ? `${options.title}\n\n${options.body}` : options.title;
    const headSha = await commitFiles(repo, this.root, {
      parent: `refs/heads/${base}`,
      files: options.files,
      message,
      ref: `refs/pull/${number}/head`,
    });
    const pull: FakePull = {
      number,
      title: options.title,
      body: options.body ?? '',
      user: options.user ?? 'developer',
      base,
      headRef,
      headSha,
      headRepo: fullName,
      state: 'open',
      merged: false,
      mergedBy: null,
      draft: options.draft ?? false,
      labels: [],
      reviews: [],
      comments: [],
      refuseMerge: null,
      mergeMethods: ['merge', 'squash', 'rebase'],
    };
    repo.pulls.set(number, pull);
    await this.sendPullEvent(repo, pull, 'opened');
    return pull;
  }

  /** Push a new commit to the pull request's head; sends `pull_request synchronize`. */
  async pushToPull(fullName: string, number: number, files: FileMap, message = 'Update'): Promise<string> {
    const repo = this.repo(fullName);
    const pull = this.pull(fullName, number);
    pull.headSha = await commitFiles(repo, this.root, {
      parent: pull.headSha,
      files,
      message,
      ref: `refs/pull/${number}/head`,
    });
    await this.sendPullEvent(repo, pull, 'synchronize');
    return pull.headSha;
  }

  async review(fullName: string, number: number, user: string, state: FakePull['reviews'][number]['state']) {
    const repo = this.repo(fullName);
    const pull = this.pull(fullName, number);
    const review = {
      id: this.id(),
      user,
      state,
      commitId: pull.headSha,
      submittedAt: new Date().toISOString(),
      body: '',
    };
    pull.reviews.push(review);
    return this.send('pull_request_review', {
      action: 'submitted',
      review: { id: review.id, user: { login: user }, state: state.toLowerCase(), commit_id: review.commitId },
      pull_request: await this.pullPayload(repo, pull),
      repository: repoJson(this.url, repo),
      sender: { login: user },
    });
  }

  async label(fullName: string, number: number, label: string, remove = false) {
    const repo = this.repo(fullName);
    const pull = this.pull(fullName, number);
    pull.labels = remove ? pull.labels.filter((l) => l !== label) : [...new Set([...pull.labels, label])];
    return this.sendPullEvent(repo, pull, remove ? 'unlabeled' : 'labeled', { label: { name: label } });
  }

  async comment(fullName: string, number: number, user: string, body: string) {
    const repo = this.repo(fullName);
    const pull = this.pull(fullName, number);
    pull.comments.push({ id: this.id(), user, body });
    return this.send('issue_comment', {
      action: 'created',
      issue: { number, pull_request: { url: `${this.url}/api/v3/repos/${fullName}/pulls/${number}` } },
      comment: { body, user: { login: user } },
      repository: repoJson(this.url, repo),
      sender: { login: user },
    });
  }

  /** Send a webhook; the delivery (and the answer it got) is recorded. */
  async send(event: string, payload: Record<string, unknown>, options: { secret?: string } = {}): Promise<Delivery> {
    if (!this.webhook) {
      throw new Error('no webhook target set');
    }
    const body = JSON.stringify(payload);
    const secret = options.secret ?? this.webhook.secret;
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const id = randomUUID();
    return this.deliver(id, event, payload, body, signature);
  }

  /** Re-send a recorded delivery with its original id (GitHub's "redeliver"). */
  async redeliver(delivery: Delivery): Promise<Delivery> {
    const body = JSON.stringify(delivery.payload);
    const signature = `sha256=${createHmac('sha256', this.target().secret).update(body).digest('hex')}`;
    return this.deliver(delivery.id, delivery.event, delivery.payload, body, signature);
  }

  private async deliver(
    id: string,
    event: string,
    payload: Record<string, unknown>,
    body: string,
    signature: string,
  ): Promise<Delivery> {
    const res = await fetch(this.target().url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': id,
        'x-hub-signature-256': signature,
      },
      body,
    });
    const delivery = { id, event, payload, status: res.status, body: await res.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  async pullPayload(repo: FakeRepo, pull: FakePull): Promise<Record<string, unknown>> {
    return pullJson(this.url, repo, pull, await revParse(repo, `refs/heads/${pull.base}`));
  }

  async sendPullEvent(repo: FakeRepo, pull: FakePull, action: string, extra: Record<string, unknown> = {}) {
    if (!this.webhook) {
      return null;
    }
    return this.send('pull_request', {
      action,
      number: pull.number,
      pull_request: await this.pullPayload(repo, pull),
      repository: repoJson(this.url, repo),
      sender: { login: pull.user },
      ...extra,
    });
  }

  /** Merge through the API's rules; sends `push` and `pull_request closed` on success. */
  async merge(
    repo: FakeRepo,
    pull: FakePull,
    method: MergeMethod,
    sha: string | undefined,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    if (pull.merged) {
      return { status: 405, body: { message: 'Pull Request is not mergeable' } };
    }
    if (sha !== undefined && sha !== pull.headSha) {
      return { status: 409, body: { message: 'Head branch was modified. Review and try the merge again.' } };
    }
    if (pull.refuseMerge !== null) {
      return { status: 405, body: { message: pull.refuseMerge } };
    }
    if (!pull.mergeMethods.includes(method)) {
      return { status: 405, body: { message: `${method} merges are not allowed on this repository.` } };
    }
    const protection = repo.protected.get(pull.base);
    for (const context of protection?.requiredContexts ?? []) {
      const passed = (repo.statuses.get(pull.headSha) ?? []).some(
        (s) => s.context === context && s.state === 'success',
      );
      if (!passed) {
        return { status: 405, body: { message: `Required status check "${context}" is expected.` } };
      }
    }
    const outcome = await mergePull(repo, pull, method, this.root, `Merge pull request #${pull.number}`);
    if ('error' in outcome) {
      return { status: 405, body: { message: outcome.error } };
    }
    pull.merged = true;
    pull.state = 'closed';
    pull.mergedBy = 'sluice[bot]';
    if (this.webhook) {
      this.background(() =>
        this.send('push', {
          ref: `refs/heads/${pull.base}`,
          before: outcome.before,
          after: outcome.sha,
          created: false,
          deleted: false,
          repository: repoJson(this.url, repo),
          sender: { login: 'sluice[bot]' },
        }).then(() => this.sendPullEvent(repo, pull, 'closed')),
      );
    }
    return { status: 200, body: { sha: outcome.sha, merged: true, message: 'Pull Request successfully merged' } };
  }

  /** Webhooks sent after an API answer (a merge's push and closed events), awaited by `settled()`. */
  private readonly pending = new Set<Promise<unknown>>();
  readonly backgroundErrors: unknown[] = [];

  private background(task: () => Promise<unknown>): void {
    const run = task().catch((err: unknown) => this.backgroundErrors.push(err));
    this.pending.add(run);
    void run.then(() => this.pending.delete(run));
  }

  /** Resolves when every webhook sent after an API answer has been delivered. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.all(this.pending);
    }
  }

  private tokenValid(token: string): boolean {
    const entry = this.tokens.get(token);
    return entry !== undefined && entry.expiresAt.getTime() > (this.options.now?.() ?? new Date()).getTime();
  }

  /** Verify an app JWT (RS256, signed by the app's private key, `iss` = app id, not expired). */
  private appJwtValid(jwt: string): boolean {
    const [header, claims, signature] = jwt.split('.');
    if (!header || !claims || !signature || !this.options.appPublicKey) {
      return false;
    }
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${header}.${claims}`);
    if (!verifier.verify(this.options.appPublicKey, Buffer.from(signature, 'base64url'))) {
      return false;
    }
    const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { iss?: unknown; exp?: number };
    const now = Math.floor(Date.now() / 1000);
    return String(body.iss) === String(this.options.appId) && typeof body.exp === 'number' && body.exp > now;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (!url.pathname.startsWith('/api/v3/')) {
      await serveGit(this.root, req, res, url, (token) => {
        const valid = this.tokenValid(token);
        if (valid) {
          const installationId = this.tokens.get(token)?.installationId ?? null;
          this.gitAccess.push({ path: url.pathname, installationId, token });
        }
        return valid;
      });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const route = url.pathname.slice('/api/v3'.length);
    const auth = req.headers.authorization ?? '';
    const bearer = /^(?:Bearer|token) (.+)$/.exec(auth)?.[1] ?? '';
    const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      const code = writeAnswer(req, res, status, json, headers);
      this.requests.push({
        method: req.method ?? 'GET',
        path: route,
        at: Date.now(),
        status: code,
        body,
        token: bearer,
      });
    };
    if (this.failing.remaining > 0) {
      this.failing.remaining -= 1;
      answer(this.failing.status, { message: 'Server Error' });
      return;
    }
    if (this.rateLimited && this.rateLimited.remaining > 0) {
      this.rateLimited.remaining -= 1;
      const { mode, seconds } = this.rateLimited;
      if (mode === 'retry-after') {
        answer(429, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': String(seconds) });
      } else {
        const reset = String(Math.ceil(Date.now() / 1000) + seconds);
        answer(
          403,
          { message: 'API rate limit exceeded' },
          { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
        );
      }
      return;
    }
    const installation = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(route);
    if (installation || /^\/repos\/[^/]+\/[^/]+\/installation$/.test(route)) {
      if (!this.appJwtValid(bearer)) {
        answer(401, { message: 'A JSON web token could not be decoded' });
        return;
      }
      if (installation) {
        const token = `ghs_${randomBytes(12).toString('hex')}`;
        const now = this.options.now?.() ?? new Date();
        const expiresAt = new Date(now.getTime() + (this.options.tokenTtlSeconds ?? 3600) * 1000);
        this.tokens.set(token, { expiresAt, installationId: Number(installation[1]) });
        answer(201, { token, expires_at: expiresAt.toISOString() });
        return;
      }
      const repo = this.repos.get(route.split('/').slice(2, 4).join('/'));
      answer(repo ? 200 : 404, repo ? { id: repo.installationId } : { message: 'Not Found' });
      return;
    }
    if (!this.tokenValid(bearer)) {
      answer(401, { message: 'Bad credentials' });
      return;
    }
    // GitHub lets only Apps (installation tokens) create and update check runs.
    if (
      req.method !== 'GET' &&
      /\/check-runs(\/\d+)?$/.test(route) &&
      this.tokens.get(bearer)?.installationId === null
    ) {
      answer(403, { message: 'You must authenticate via a GitHub App.' });
      return;
    }
    const result = await handleRepoRoute(this, req.method ?? 'GET', route, url.searchParams, body);
    answer(result.status, result.body);
  }
}
