/**
 * One GitHub connection (docs/github.md#the-connection): where its API and repositories are,
 * its REST client, webhook signature checks, and the pull-request reads and writes the change
 * source, reporter and merger use.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GitHubApiError, GitHubClient, type GitHubClientOptions } from './client';
import { LruMap } from './lru';

/** How long a collaborator's permission is believed (docs/github.md#reads-and-their-cost). */
export const PERMISSION_TTL_MS = 60_000;
/** Permissions kept at most (repository and user pairs). */
const PERMISSION_CACHE_ENTRIES = 5000;

/** The settings of a GitHub connection this module reads (the service configuration's `driver: github`). */
export interface GitHubConnectionConfig {
  server: string;
  baseurl?: string;
  canonicalHostname?: string;
  appId?: number | string;
  appKeyFile?: string;
  apiToken?: string;
  apiTokenFile?: string;
  webhookToken?: string;
  webhookTokenFile?: string;
  requestTimeout: number;
  rateLimitMaxWait: number;
}

function readSetting(value: string | undefined, file: string | undefined, what: string): string {
  if (value !== undefined) {
    return value;
  }
  if (file === undefined) {
    throw new Error(`the GitHub connection has no ${what}`);
  }
  return readFileSync(file, 'utf8').trim();
}

export interface PullJson {
  number: number;
  state: string;
  /** Only the single pull request's answer has `merged`; the list endpoint gives `merged_at`. */
  merged?: boolean;
  merged_at?: string | null;
  draft?: boolean;
  title: string;
  body: string | null;
  html_url: string;
  user: { login: string } | null;
  labels: Array<{ name: string }>;
  head: { ref: string; sha: string };
  base: { ref: string; repo: { full_name: string } };
}

/** The server's base URL (scheme and host) and API base URL for a `server` setting. */
export function githubEndpoints(settings: Pick<GitHubConnectionConfig, 'server' | 'baseurl'>): {
  web: string;
  api: string;
  host: string;
} {
  const web = /^https?:\/\//.test(settings.server) ? settings.server.replace(/\/+$/, '') : `https://${settings.server}`;
  const host = new URL(web).host;
  const api = settings.baseurl ?? (host === 'github.com' ? 'https://api.github.com' : `${web}/api/v3`);
  return { web, api: api.replace(/\/+$/, ''), host };
}

export class GitHubConnection {
  readonly client: GitHubClient;
  readonly web: string;
  readonly canonicalHostname: string;
  private readonly webhookSecret: string;
  /** Permission lookups per repository and user, each believed for `permissionTtlMs`. */
  private readonly permissions = new LruMap<string, { permission: Promise<string>; until: number }>(
    PERMISSION_CACHE_ENTRIES,
  );
  private readonly permissionTtlMs: number;
  private readonly now: () => Date;

  constructor(
    readonly name: string,
    settings: GitHubConnectionConfig,
    options: Pick<GitHubClientOptions, 'now' | 'timers' | 'onRateLimit' | 'responseCache'> & {
      permissionTtlMs?: number;
    } = {},
  ) {
    this.permissionTtlMs = options.permissionTtlMs ?? PERMISSION_TTL_MS;
    this.now = options.now ?? (() => new Date());
    const endpoints = githubEndpoints(settings);
    this.web = endpoints.web;
    this.canonicalHostname = settings.canonicalHostname ?? endpoints.host;
    this.webhookSecret = readSetting(settings.webhookToken, settings.webhookTokenFile, 'webhook secret');
    const auth =
      settings.appId !== undefined && settings.appKeyFile !== undefined
        ? {
            kind: 'app' as const,
            appId: String(settings.appId),
            privateKey: readFileSync(settings.appKeyFile, 'utf8'),
          }
        : { kind: 'token' as const, token: readSetting(settings.apiToken, settings.apiTokenFile, 'API token') };
    this.client = new GitHubClient({
      apiBase: endpoints.api,
      auth,
      timeoutMs: settings.requestTimeout * 1000,
      maxWaitMs: settings.rateLimitMaxWait * 1000,
      now: options.now,
      timers: options.timers,
      onRateLimit: options.onRateLimit,
      responseCache: options.responseCache,
    });
  }

  /** Whether `X-Hub-Signature-256` is the HMAC-SHA256 of the body with the webhook secret. */
  signatureValid(body: Buffer, header: string | undefined): boolean {
    if (header === undefined || !header.startsWith('sha256=')) {
      return false;
    }
    const expected = Buffer.from(createHmac('sha256', this.webhookSecret).update(body).digest('hex'));
    const given = Buffer.from(header.slice('sha256='.length));
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /**
   * The git URL prefix of the repositories with the repository's current token as HTTP basic
   * credentials (`x-access-token:<token>`), as GitHub documents for App installation tokens.
   */
  gitBaseUrl(repository: string): string {
    const token = this.client.cachedToken(repository);
    if (token === null) {
      return this.web;
    }
    const url = new URL(this.web);
    url.username = 'x-access-token';
    url.password = token;
    return url.toString().replace(/\/+$/, '');
  }

  /** Make sure a valid token for the repository is cached (before git uses `gitBaseUrl`). */
  async prepareGit(repository: string): Promise<void> {
    await this.client.tokenFor(repository);
  }

  pull(repository: string, number: number): Promise<PullJson> {
    return this.client.request<PullJson>('GET', `/repos/${repository}/pulls/${number}`, repository);
  }

  openPulls(repository: string): Promise<PullJson[]> {
    return this.client.request<PullJson[]>('GET', `/repos/${repository}/pulls?state=open&per_page=100`, repository);
  }

  reviews(repository: string, number: number) {
    return this.client.request<Array<{ user: { login: string } | null; state: string; submitted_at: string }>>(
      'GET',
      `/repos/${repository}/pulls/${number}/reviews?per_page=100`,
      repository,
    );
  }

  /**
   * A collaborator's permission, asked once per repository and user within the TTL (concurrent
   * askers share the request; a failed one is not kept).
   */
  permission(repository: string, user: string): Promise<string> {
    const key = `${repository}\u0000${user}`;
    const now = this.now().getTime();
    const known = this.permissions.get(key);
    if (known && known.until > now) {
      return known.permission;
    }
    const permission = this.client
      .request<{ permission: string }>('GET', `/repos/${repository}/collaborators/${user}/permission`, repository)
      .then((body) => body.permission);
    const entry = { permission, until: now + this.permissionTtlMs };
    this.permissions.set(key, entry);
    permission.catch(() => {
      if (this.permissions.get(key) === entry) {
        this.permissions.delete(key);
      }
    });
    return permission;
  }

  statuses(repository: string, sha: string) {
    return this.client.request<{
      statuses: Array<{ state: string; context: string; creator: { login: string } | null }>;
    }>('GET', `/repos/${repository}/commits/${sha}/status`, repository);
  }

  checkRuns(repository: string, sha: string) {
    return this.client.request<{
      check_runs: Array<{ id: number; name: string; status: string; conclusion: string | null; app: { slug: string } }>;
    }>('GET', `/repos/${repository}/commits/${sha}/check-runs`, repository);
  }

  /** Branches with protection (for `exclude-unprotected-branches`). */
  async protectedBranches(repository: string): Promise<string[]> {
    const branches = await this.client.request<Array<{ name: string }>>(
      'GET',
      `/repos/${repository}/branches?protected=true&per_page=100`,
      repository,
    );
    return branches.map((b) => b.name);
  }

  /**
   * Branches locked by their protection (`lock_branch`, read-only; for `exclude-locked-branches`):
   * only a protected branch can be locked, so the protection of each protected branch is read.
   */
  async lockedBranches(repository: string): Promise<string[]> {
    const names = await this.protectedBranches(repository);
    const locked = await Promise.all(
      names.map(async (name) => {
        const protection: { lock_branch?: { enabled?: boolean } } = await this.client
          .request<{ lock_branch?: { enabled?: boolean } }>(
            'GET',
            `/repos/${repository}/branches/${encodeURIComponent(name)}/protection`,
            repository,
          )
          // Protection removed since the list was read: not locked.
          .catch((err: unknown) => {
            if (err instanceof GitHubApiError && err.status === 404) {
              return {};
            }
            throw err;
          });
        return protection.lock_branch?.enabled === true;
      }),
    );
    return names.filter((_, i) => locked[i]);
  }
}
