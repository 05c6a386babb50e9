/**
 * The GitHub REST client of a connection (docs/github.md#the-connection): GitHub App
 * authentication (an RS256 app JWT exchanged for installation tokens, cached per installation
 * and refreshed before they expire) or a personal token, a timeout per request, and rate
 * limits waited out (`Retry-After`, `X-RateLimit-Reset`), never retried in a tight loop.
 */
import { createSign } from 'node:crypto';
import { sleepOn, systemClock, type TimerClock } from '../../engine/ports/clock';
import { DEFAULT_RESPONSE_CACHE_LIMITS, ResponseCache, type ResponseCacheLimits } from './response-cache';

export type GitHubAuth = { kind: 'app'; appId: string; privateKey: string } | { kind: 'token'; token: string };

export interface GitHubClientOptions {
  apiBase: string;
  auth: GitHubAuth;
  timeoutMs: number;
  /** Longest single wait for a rate limit; a longer one fails the request. */
  maxWaitMs: number;
  now?: () => Date;
  /** The clock rate limits are waited out on: when a limit ends, and the wait (default: the system clock). */
  timers?: TimerClock;
  /** Called before each rate-limit wait (logging, tests). */
  onRateLimit?: (waitMs: number, path: string) => void;
  /** Bounds of the conditional-request cache of GET answers (docs/github.md#reads-and-their-cost). */
  responseCache?: ResponseCacheLimits;
}

export class GitHubApiError extends Error {
  constructor(
    readonly status: number,
    readonly apiMessage: string,
    readonly path: string,
  ) {
    super(`GitHub API ${path} answered ${status}: ${apiMessage}`);
    this.name = 'GitHubApiError';
  }
}

/** Refresh an installation token this long before it expires. */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 4;

interface CachedToken {
  token: string;
  expiresAt: number;
}

export function appJwt(appId: string, privateKey: string, now: Date): string {
  const seconds = Math.floor(now.getTime() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  // iat 60 s in the past tolerates clock drift; GitHub accepts at most 10 minutes of validity.
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: seconds - 60, exp: seconds + 540, iss: appId })}`;
  const signer = createSign('RSA-SHA256');
  signer.update(unsigned);
  return `${unsigned}.${signer.sign(privateKey).toString('base64url')}`;
}

export class GitHubClient {
  private readonly installations = new Map<string, number>();
  private readonly tokens = new Map<number, CachedToken>();
  private readonly pendingTokens = new Map<number, Promise<CachedToken>>();
  /** No request is sent before this time (a rate limit in force). */
  private blockedUntil = 0;
  private readonly now: () => Date;
  private readonly timers: TimerClock;
  readonly responses: ResponseCache;

  constructor(private readonly options: GitHubClientOptions) {
    this.responses = new ResponseCache(options.responseCache ?? DEFAULT_RESPONSE_CACHE_LIMITS);
    this.now = options.now ?? (() => new Date());
    this.timers = options.timers ?? systemClock;
  }

  /** Whether the client authenticates as a GitHub App (only Apps may write check runs). */
  get usesApp(): boolean {
    return this.options.auth.kind === 'app';
  }

  /** A token for the repository's owner: its installation's token, or the personal token. */
  async tokenFor(repository: string): Promise<string> {
    if (this.options.auth.kind === 'token') {
      return this.options.auth.token;
    }
    const installation = await this.installationOf(repository);
    const cached = this.tokens.get(installation);
    if (cached && cached.expiresAt - TOKEN_REFRESH_MARGIN_MS > this.now().getTime()) {
      return cached.token;
    }
    let pending = this.pendingTokens.get(installation);
    if (!pending) {
      pending = this.createToken(installation).finally(() => this.pendingTokens.delete(installation));
      this.pendingTokens.set(installation, pending);
    }
    return (await pending).token;
  }

  /** The cached token for a repository's owner, if one is valid now (for git URLs, which are built synchronously). */
  cachedToken(repository: string): string | null {
    if (this.options.auth.kind === 'token') {
      return this.options.auth.token;
    }
    const installation = this.installations.get(repository.split('/')[0]);
    const cached = installation === undefined ? undefined : this.tokens.get(installation);
    return cached && cached.expiresAt > this.now().getTime() ? cached.token : null;
  }

  /** Refresh every cached installation token that expires within the refresh margin. */
  async refreshTokens(): Promise<void> {
    for (const [owner, installation] of this.installations) {
      const cached = this.tokens.get(installation);
      if (!cached || cached.expiresAt - TOKEN_REFRESH_MARGIN_MS <= this.now().getTime()) {
        await this.tokenFor(`${owner}/-`);
      }
    }
  }

  private async installationOf(repository: string): Promise<number> {
    const owner = repository.split('/')[0];
    const known = this.installations.get(owner);
    if (known !== undefined) {
      return known;
    }
    const body = (await this.send('GET', `/repos/${repository}/installation`, undefined, this.jwt())) as { id: number };
    this.installations.set(owner, body.id);
    return body.id;
  }

  private jwt(): string {
    const auth = this.options.auth as Extract<GitHubAuth, { kind: 'app' }>;
    return appJwt(auth.appId, auth.privateKey, this.now());
  }

  private async createToken(installation: number): Promise<CachedToken> {
    const body = (await this.send(
      'POST',
      `/app/installations/${installation}/access_tokens`,
      undefined,
      this.jwt(),
    )) as { token: string; expires_at: string };
    const cached = { token: body.token, expiresAt: Date.parse(body.expires_at) };
    this.tokens.set(installation, cached);
    return cached;
  }

  /** A request on behalf of a repository (its installation's token). */
  async request<T = unknown>(method: string, path: string, repository: string, body?: unknown): Promise<T> {
    return (await this.send(method, path, body, await this.tokenFor(repository))) as T;
  }

  private async send(method: string, path: string, body: unknown, bearer: string): Promise<unknown> {
    for (let attempt = 1; ; attempt += 1) {
      const wait = this.blockedUntil - this.timers.now().getTime();
      if (wait > 0) {
        await this.waitFor(wait, path);
      }
      // A GET is conditional when an earlier answer left a validator (read when sent: an entry
      // evicted meanwhile still serves its own 304).
      const cached = method === 'GET' ? this.responses.get(path) : undefined;
      let res: Response;
      try {
        res = await fetch(`${this.options.apiBase}${path}`, {
          method,
          headers: {
            accept: 'application/vnd.github+json',
            authorization: `Bearer ${bearer}`,
            'x-github-api-version': '2022-11-28',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...ResponseCache.conditionalHeaders(cached),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (err) {
        const reason =
          (err as Error).name === 'TimeoutError' ? `timed out after ${this.options.timeoutMs} ms` : String(err);
        throw new GitHubApiError(0, reason, path);
      }
      if (res.status === 304 && cached) {
        await res.arrayBuffer();
        return cached.text ? safeJson(cached.text) : null;
      }
      const text = await res.text();
      if (method === 'GET' && res.status === 200) {
        this.responses.store(path, res.headers, text);
      }
      const json = text ? (safeJson(text) ?? { message: text }) : null;
      const limitWait = this.rateLimitWait(res);
      if (limitWait !== null && attempt < MAX_ATTEMPTS) {
        this.blockedUntil = Math.max(this.blockedUntil, this.timers.now().getTime() + limitWait);
        continue;
      }
      if (!res.ok) {
        const message = (json as { message?: string } | null)?.message ?? res.statusText;
        throw new GitHubApiError(res.status, message, path);
      }
      return json;
    }
  }

  private async waitFor(ms: number, path: string): Promise<void> {
    if (ms > this.options.maxWaitMs) {
      throw new GitHubApiError(429, `rate limited for ${Math.ceil(ms / 1000)} s (more than the allowed wait)`, path);
    }
    this.options.onRateLimit?.(ms, path);
    await sleepOn(this.timers)(ms);
  }

  /** Milliseconds to wait when the answer is a rate limit (primary or secondary), else null. */
  private rateLimitWait(res: Response): number | null {
    if (res.status !== 403 && res.status !== 429) {
      return null;
    }
    const retryAfter = res.headers.get('retry-after');
    if (retryAfter !== null && /^\d+$/.test(retryAfter)) {
      return Number(retryAfter) * 1000;
    }
    if (res.headers.get('x-ratelimit-remaining') === '0') {
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      // One extra second: the reset time is whole seconds. It is the wall clock's; the wait is on `timers`.
      return Number.isFinite(reset) ? Math.max(0, reset * 1000 - Date.now()) + 1000 : 60_000;
    }
    // A secondary limit without headers: GitHub asks for at least a minute.
    return res.status === 429 ? 60_000 : null;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
