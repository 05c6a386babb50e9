/**
 * Gerrit's REST API as the driver uses it (docs/gerrit.md#rest-api): authenticated requests under
 * `<baseurl>/a/` with HTTP basic credentials, answers with the `)]}'` prefix Gerrit puts before its
 * JSON stripped, errors carrying Gerrit's text.
 */
import { gerritBaseUrl, type GerritConnectionConfig } from './connection-schema';

/** An account as Gerrit's REST API describes it (`DETAILED_ACCOUNTS`). */
export interface AccountJson {
  _account_id?: number;
  name?: string;
  email?: string;
  username?: string;
}

/** A change as `GET /changes/` answers with `ALL_REVISIONS`, `ALL_COMMITS`, `DETAILED_LABELS`, `DETAILED_ACCOUNTS`. */
export interface ChangeJson {
  project: string;
  branch: string;
  topic?: string;
  hashtags?: string[];
  change_id: string;
  subject: string;
  status: string;
  _number: number;
  owner?: AccountJson;
  work_in_progress?: boolean;
  updated?: string;
  submitted?: string;
  current_revision?: string;
  revisions?: Record<
    string,
    {
      _number: number;
      ref: string;
      created?: string;
      uploader?: AccountJson;
      commit?: { message?: string; parents?: Array<{ commit: string }> };
    }
  >;
  /** With `MESSAGES`: the change's review messages. */
  messages?: Array<{ author?: AccountJson; date?: string; message?: string; _revision_number?: number }>;
  /** On the last change of a page when more match. */
  _more_changes?: boolean;
  labels?: Record<string, { all?: Array<AccountJson & { value?: number; date?: string }> }>;
}

/** One entry of `GET .../revisions/<revision>/related`: a change in the revision's git ancestry or built on it. */
export interface RelatedChangeJson {
  project?: string;
  commit?: { commit?: string };
  _change_number?: number;
  _revision_number?: number;
  status?: string;
}

export class GerritApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GerritApiError';
  }
}

/** Gerrit's prefix against cross-site script inclusion, before every JSON answer. */
const XSSI_PREFIX = ")]}'";

const CHANGE_OPTIONS = ['ALL_REVISIONS', 'ALL_COMMITS', 'DETAILED_LABELS', 'DETAILED_ACCOUNTS'];

export class GerritClient {
  readonly base: string;
  private readonly authorization: string;

  constructor(
    settings: GerritConnectionConfig,
    private readonly timeoutMs = 30_000,
  ) {
    this.base = gerritBaseUrl(settings);
    this.authorization = `Basic ${Buffer.from(`${settings.user}:${settings.password ?? ''}`).toString('base64')}`;
  }

  /** One authenticated request (`path` below `/a`); the parsed JSON answer, null when it has none. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}/a${path}`, {
      method,
      headers: {
        authorization: this.authorization,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json; charset=UTF-8' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      throw new GerritApiError(res.status, `${method} ${path}: ${res.status} ${text.trim() || res.statusText}`);
    }
    const json = text.startsWith(XSSI_PREFIX) ? text.slice(XSSI_PREFIX.length) : text;
    return (json.trim() === '' ? null : JSON.parse(json)) as T;
  }

  /** Changes matching a Gerrit query (`project:org/app status:open`, `change:I…`). */
  query(query: string): Promise<ChangeJson[]> {
    const options = CHANGE_OPTIONS.map((o) => `&o=${o}`).join('');
    return this.request<ChangeJson[]>('GET', `/changes/?q=${encodeURIComponent(query)}${options}`);
  }

  /** Every change matching a query, with its review messages, page by page (Gerrit caps each answer). */
  async queryAll(query: string): Promise<ChangeJson[]> {
    const options = [...CHANGE_OPTIONS, 'MESSAGES'].map((o) => `&o=${o}`).join('');
    const all: ChangeJson[] = [];
    for (;;) {
      const page = await this.request<ChangeJson[]>(
        'GET',
        `/changes/?q=${encodeURIComponent(query)}${options}&S=${all.length}`,
      );
      all.push(...page);
      if (page.length === 0 || page.at(-1)?._more_changes !== true) {
        return all;
      }
    }
  }

  /** The change of a project by number, or null when Gerrit has none. */
  async change(project: string, number: number): Promise<ChangeJson | null> {
    const options = CHANGE_OPTIONS.map((o) => `o=${o}`).join('&');
    try {
      return await this.request<ChangeJson>('GET', `/changes/${encodeURIComponent(`${project}~${number}`)}?${options}`);
    } catch (err) {
      if (err instanceof GerritApiError && err.status === 404) {
        return null;
      }
      throw err;
    }
  }

  /** The changes related to a revision by git ancestry (Gerrit's "Related Changes"). */
  async related(project: string, number: number, revision: string): Promise<RelatedChangeJson[]> {
    const id = encodeURIComponent(`${project}~${number}`);
    const answer = await this.request<{ changes?: RelatedChangeJson[] } | null>(
      'GET',
      `/changes/${id}/revisions/${encodeURIComponent(revision)}/related`,
    );
    return answer?.changes ?? [];
  }

  /** Post a review (votes, message, notify) on a patch set. */
  async review(
    project: string,
    number: number,
    patchset: string,
    review: { message?: string; labels?: Record<string, number>; notify?: string },
  ): Promise<void> {
    const id = encodeURIComponent(`${project}~${number}`);
    await this.request('POST', `/changes/${id}/revisions/${encodeURIComponent(patchset)}/review`, review);
  }

  /** Submit a change (Gerrit merges it into its branch). */
  async submit(project: string, number: number): Promise<ChangeJson> {
    return this.request<ChangeJson>('POST', `/changes/${encodeURIComponent(`${project}~${number}`)}/submit`, {});
  }

  /** The revision a branch points at. */
  async branchRevision(project: string, branch: string): Promise<string> {
    const info = await this.request<{ revision: string }>(
      'GET',
      `/projects/${encodeURIComponent(project)}/branches/${encodeURIComponent(branch)}`,
    );
    return info.revision;
  }
}
