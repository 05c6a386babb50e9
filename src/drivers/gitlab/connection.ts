/**
 * One GitLab connection (docs/gitlab.md#the-connection): its settings' schema, where its web,
 * API and repositories are, the webhook token check, and the REST calls (API v4, `PRIVATE-TOKEN`)
 * the change source, reporter and merge make. Requests go through node:http(s) with an agent of
 * the connection's `keepalive` (or none with `disableConnectionPool`); 429 answers wait for
 * `Retry-After`, 5xx answers and failed connections are tried again a few times.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { sshGitEnv } from '../../sources/git-ssh';
import { nullIfNotFound } from '../located-project';

export const gitlabConnection = z
  .object({
    driver: z.literal('gitlab'),
    /** Host name of the GitLab server. */
    server: z.string().min(1).default('gitlab.com'),
    /** Base URL of its web and API (`<baseurl>/api/v4`); default `https://<server>`. */
    baseurl: z.string().url().optional(),
    canonicalHostname: z.string().min(1).optional(),
    /** A personal, project or group access token with the `api` scope. */
    apiToken: z.string().min(1),
    /** The user name git over HTTP gives with the token; default `oauth2`. */
    apiTokenName: z.string().min(1).optional(),
    /** The webhook's secret token (`X-Gitlab-Token`). */
    webhookToken: z.string().min(1),
    /** The SSH private key git over SSH offers (with an `ssh://` cloneurl, docs/gitlab.md#repositories). */
    sshkey: z.string().min(1).optional(),
    /** Base URL repositories are cloned from (`ssh://git@<server>` for SSH); default the baseurl with the token as credentials. */
    cloneurl: z.string().url().optional(),
    /** Seconds an idle API connection is kept open (0: closed after each request). */
    keepalive: z.number().int().min(0).default(60),
    /** A new API connection for each request. */
    disableConnectionPool: z.boolean().default(false),
    /** Seconds one API request may take. */
    requestTimeout: z.number().positive().default(30),
  })
  .strict();

export type GitLabConnectionConfig = z.infer<typeof gitlabConnection>;

export class GitLabApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GitLabApiError';
  }
}

/** A merge request as the API gives it (the fields read). */
export interface MergeRequestJson {
  iid: number;
  state: string;
  title: string;
  description: string | null;
  web_url: string;
  author: { username: string } | null;
  target_branch: string;
  source_branch: string;
  sha: string;
  labels: string[];
  /** Whether it is a draft (`work_in_progress`: the field's older name, which GitLab still sends). */
  draft?: boolean;
  work_in_progress?: boolean;
  merge_commit_sha?: string | null;
  squash_commit_sha?: string | null;
  squash?: boolean;
  /** The pipeline of the head commit (`status`: created, pending, running, success, failed, ...). */
  head_pipeline?: { status?: string } | null;
  /** Set while GitLab waits for the pipeline to merge (before 17.11; `auto_merge_enabled` after). */
  merge_when_pipeline_succeeds?: boolean;
  auto_merge_enabled?: boolean;
}

/** A note as the API lists it (the fields read). */
interface NoteJson {
  body: string;
  author?: { username?: string } | null;
  created_at?: string;
}

/** How far GitLab's clock may be behind Sluice's when a retried note looks for itself. */
const NOTE_CLOCK_SKEW_MS = 60_000;
/** Waits before the second, third and fourth try of a request that failed transiently. */
const RETRY_DELAYS_MS = [500, 2000, 5000];
/** Longest wait for a rate limit (`Retry-After`) before the request fails. */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/** The connection's web base (`baseurl`, default `https://<server>`), without a trailing slash. */
export function gitlabWeb(settings: Pick<GitLabConnectionConfig, 'baseurl' | 'server'>): string {
  return (settings.baseurl ?? `https://${settings.server}`).replace(/\/+$/, '');
}

export class GitLabConnection {
  readonly web: string;
  readonly api: string;
  readonly canonicalHostname: string;
  private readonly agent: http.Agent | false;
  private readonly token: string;
  private readonly webhookToken: Buffer;
  private userName: Promise<string> | undefined;

  constructor(
    readonly name: string,
    private readonly settings: GitLabConnectionConfig,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    this.web = gitlabWeb(settings);
    this.api = `${this.web}/api/v4`;
    this.canonicalHostname = settings.canonicalHostname ?? settings.server;
    this.token = settings.apiToken;
    this.webhookToken = Buffer.from(settings.webhookToken);
    const Agent = this.web.startsWith('https:') ? https.Agent : http.Agent;
    this.agent = settings.disableConnectionPool
      ? false
      : new Agent({ keepAlive: settings.keepalive > 0, keepAliveMsecs: settings.keepalive * 1000 });
  }

  /** Whether `X-Gitlab-Token` is the connection's webhook token. */
  tokenValid(header: string | undefined): boolean {
    const given = Buffer.from(header ?? '');
    return given.length === this.webhookToken.length && timingSafeEqual(given, this.webhookToken);
  }

  /**
   * The environment git fetches with: over SSH (an `ssh://` cloneurl) OpenSSH with the `sshkey`
   * and host keys trusted on first use in `knownHosts` (src/sources/git-ssh.ts); none over HTTP.
   */
  gitEnv(knownHosts: string): Record<string, string> {
    return this.settings.cloneurl?.startsWith('ssh://') ? sshGitEnv(this.settings.sshkey, knownHosts) : {};
  }

  /** The URL prefix git fetches a project from (`<prefix>/<project>`), with the token as credentials over HTTP(S). */
  gitBaseUrl(): string {
    const url = new URL(this.settings.cloneurl ?? this.web);
    if (url.protocol.startsWith('http') && url.username === '') {
      url.username = this.settings.apiTokenName ?? 'oauth2';
      url.password = this.token;
    }
    return url.toString().replace(/\/+$/, '');
  }

  private once(
    method: string,
    path: string,
    body: unknown,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
    const url = new URL(`${this.api}${path}`);
    const transport = url.protocol === 'https:' ? https : http;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method,
          agent: this.agent,
          timeout: this.settings.requestTimeout * 1000,
          headers: {
            'private-token': this.token,
            accept: 'application/json',
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`GitLab API request timed out after ${this.settings.requestTimeout} s`)),
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * One API call; resolves with the parsed answer, or throws GitLabApiError (status 0: no answer).
   * `done`, asked before each try after one that failed without an answer or with a 5xx (the
   * call may have been done all the same), ends the retries when it finds the call's work done.
   */
  async request<T>(method: string, path: string, body?: unknown, done?: () => Promise<T | null>): Promise<T> {
    let unsure = false;
    for (let attempt = 0; ; attempt += 1) {
      let status = 0;
      let message: string;
      try {
        const found = unsure && done ? await done() : null;
        if (found !== null) {
          return found;
        }
        const answer = await this.once(method, path, body);
        status = answer.status;
        if (status >= 200 && status < 300) {
          return (answer.text === '' ? null : JSON.parse(answer.text)) as T;
        }
        message = `GitLab ${method} ${path}: ${status} ${answer.text.slice(0, 300)}`;
        if (status === 429) {
          const wait = Number(answer.headers['retry-after'] ?? 1) * 1000;
          if (wait <= MAX_RATE_LIMIT_WAIT_MS && attempt < RETRY_DELAYS_MS.length) {
            await this.sleep(wait);
            continue;
          }
        }
      } catch (err) {
        message = `GitLab ${method} ${path}: ${(err as Error).message}`;
      }
      const transient = status === 0 || status >= 500;
      unsure = unsure || transient;
      const delay = RETRY_DELAYS_MS[attempt];
      if (!transient || delay === undefined) {
        throw new GitLabApiError(status, message);
      }
      await this.sleep(delay);
    }
  }

  private mrPath(project: string, iid: number, rest = ''): string {
    return `/projects/${encodeURIComponent(project)}/merge_requests/${iid}${rest}`;
  }

  mergeRequest(project: string, iid: number): Promise<MergeRequestJson> {
    return this.request('GET', this.mrPath(project, iid));
  }

  openMergeRequests(project: string): Promise<MergeRequestJson[]> {
    return this.request('GET', `/projects/${encodeURIComponent(project)}/merge_requests?state=opened&per_page=100`);
  }

  approvals(
    project: string,
    iid: number,
  ): Promise<{ approved?: boolean; approved_by: Array<{ user: { username: string } }> }> {
    return this.request('GET', this.mrPath(project, iid, '/approvals'));
  }

  /**
   * Note `body` on the merge request. A try after one that failed without an answer or with a 5xx
   * first reads the newest notes: when one of the token's user with this body was created since
   * the first try (less `NOTE_CLOCK_SKEW_MS`), GitLab stored it already and it is not posted again.
   */
  comment(project: string, iid: number, body: string): Promise<unknown> {
    const since = Date.now() - NOTE_CLOCK_SKEW_MS;
    return this.request('POST', this.mrPath(project, iid, '/notes'), { body }, async () => {
      const user = await this.user();
      const notes = await this.request<NoteJson[]>(
        'GET',
        this.mrPath(project, iid, '/notes?sort=desc&order_by=created_at&per_page=100'),
      );
      const stored = notes.find(
        (n) =>
          n.body === body &&
          n.author?.username === user &&
          (n.created_at === undefined || Date.parse(n.created_at) >= since),
      );
      return stored ?? null;
    });
  }

  /** The user name of the API token (`GET /user`), read once. */
  private user(): Promise<string> {
    this.userName ??= this.request<{ username: string }>('GET', '/user').then(
      (u) => u.username,
      (err: unknown) => {
        this.userName = undefined;
        throw err;
      },
    );
    return this.userName;
  }

  /** Whether the branch is protected now (`GET .../repository/branches/<branch>`); null when there is no such branch. */
  async branchProtected(project: string, branch: string): Promise<boolean | null> {
    const found = await nullIfNotFound(() =>
      this.request<{ protected?: boolean }>(
        'GET',
        `/projects/${encodeURIComponent(project)}/repository/branches/${encodeURIComponent(branch)}`,
      ),
    );
    return found === null ? null : found.protected === true;
  }

  /**
   * The project's protected branches, from the branch list's `protected` flags (as the
   * reference's `exclude-unprotected-branches` reads them): `GET .../repository/branches`, 100 a page.
   */
  async protectedBranches(project: string): Promise<string[]> {
    const names: string[] = [];
    for (let page = 1; ; page += 1) {
      const branches = await this.request<Array<{ name: string; protected?: boolean }>>(
        'GET',
        `/projects/${encodeURIComponent(project)}/repository/branches?per_page=100&page=${page}`,
      );
      names.push(...branches.filter((b) => b.protected === true).map((b) => b.name));
      if (branches.length < 100) {
        return names;
      }
    }
  }

  approve(project: string, iid: number, sha: string | null): Promise<unknown> {
    return this.request('POST', this.mrPath(project, iid, '/approve'), sha === null ? {} : { sha });
  }

  unapprove(project: string, iid: number): Promise<unknown> {
    return this.request('POST', this.mrPath(project, iid, '/unapprove'), {});
  }

  labels(project: string, iid: number, add: string[], remove: string[]): Promise<unknown> {
    return this.request('PUT', this.mrPath(project, iid), {
      ...(add.length > 0 ? { add_labels: add.join(',') } : {}),
      ...(remove.length > 0 ? { remove_labels: remove.join(',') } : {}),
    });
  }

  merge(project: string, iid: number, body: Record<string, unknown>): Promise<MergeRequestJson> {
    return this.request('PUT', this.mrPath(project, iid, '/merge'), body);
  }

  close(): void {
    if (this.agent !== false) {
      this.agent.destroy();
    }
  }
}
