/**
 * The GitHub reporter (docs/github.md#reporters): for each reporter of the phase, a commit
 * status, a check run, a comment, labels added or removed and a review on the pull request.
 * Merging is not done here: `merge: true` makes the engine merge on success through the merger
 * port (`mergePullRequest` below).
 */
import type { ItemReport } from '../../engine/ports/reporter';
import type { ChangeInfo } from '../../model/changes';
import type { GitHubCheckRunRepository } from '../../store/repositories/github-check-runs';
import type { GitHubConnection } from './connection';
import { REPORT_RETRY_DELAYS_MS, withRetries, type RetryOptions } from './retry';

const STATUS_DESCRIPTION: Record<string, string> = {
  pending: 'started',
  success: 'succeeded',
  failure: 'failed',
  error: 'errored',
};

function repositoryOf(change: ChangeInfo, connection: GitHubConnection): string {
  const prefix = `${connection.canonicalHostname}/`;
  return change.project.startsWith(prefix) ? change.project.slice(prefix.length) : change.project;
}

function checkSummary(report: ItemReport): string {
  const lines = report.jobs.map(
    (job) => `- ${job.name}: ${job.result ?? 'in progress'}${job.voting ? '' : ' (non-voting)'}`,
  );
  return [report.message, '', ...lines].join('\n').trim();
}

export class GitHubReporter {
  constructor(
    private readonly connections: ReadonlyMap<string, GitHubConnection>,
    private readonly buildsetUrl: (tenant: string, uuid: string) => string,
    /** Check run ids, stored: a run is created once, then updated, also after a restart. */
    private readonly checkRuns: Pick<GitHubCheckRunRepository, 'find' | 'save'>,
    private readonly now: () => Date = () => new Date(),
    /** Each API call of a report is retried on 5xx answers and failed connections (src/drivers/github/retry.ts). */
    private readonly retry: RetryOptions = {
      delaysMs: REPORT_RETRY_DELAYS_MS,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  private send<T = unknown>(
    connection: GitHubConnection,
    method: string,
    path: string,
    repository: string,
    body?: unknown,
  ): Promise<T> {
    return withRetries(() => connection.client.request<T>(method, path, repository, body), this.retry);
  }

  async report(report: ItemReport): Promise<void> {
    const change = report.change;
    for (const reporter of report.reporters) {
      const connection = this.connections.get(reporter.connection);
      if (!connection || change.kind !== 'change' || change.number === null || change.patchset === null) {
        continue;
      }
      await this.apply(connection, repositoryOf(change, connection), report, reporter.options);
    }
  }

  private async apply(
    connection: GitHubConnection,
    repository: string,
    report: ItemReport,
    options: Record<string, unknown>,
  ): Promise<void> {
    const number = report.change.number ?? 0;
    const sha = report.change.patchset ?? '';
    const context = `${report.tenant}/${report.pipeline}`;
    const url = this.buildsetUrl(report.tenant, report.buildsetUuid);
    if (typeof options.status === 'string') {
      const state = options.status;
      const target = typeof options['status-url'] === 'string' ? options['status-url'] : url;
      await this.send(connection, 'POST', `/repos/${repository}/statuses/${sha}`, repository, {
        state,
        context,
        target_url: target,
        description: `${report.pipeline} ${STATUS_DESCRIPTION[state] ?? state}`,
      });
    }
    if (typeof options.check === 'string' && !connection.client.usesApp) {
      // GitHub refuses check runs to personal tokens; the other reports of the phase still go out.
      this.warn(`connection ${connection.name}: check runs need a GitHub App; ${context} not reported as a check run`);
    } else if (typeof options.check === 'string') {
      await this.reportCheck(connection, repository, report, options.check, url);
    }
    const comment = options.comment === undefined ? report.message !== '' : options.comment === true;
    if (comment && report.message !== '') {
      await this.send(connection, 'POST', `/repos/${repository}/issues/${number}/comments`, repository, {
        body: report.message,
      });
    }
    const labels = list(options.label);
    if (labels.length > 0) {
      await this.send(connection, 'POST', `/repos/${repository}/issues/${number}/labels`, repository, { labels });
    }
    for (const label of list(options.unlabel)) {
      await this.send(
        connection,
        'DELETE',
        `/repos/${repository}/issues/${number}/labels/${encodeURIComponent(label)}`,
        repository,
      ).catch((err: unknown) => {
        // A label that is not there is already removed.
        if ((err as { status?: number }).status !== 404) {
          throw err;
        }
      });
    }
    if (typeof options.review === 'string') {
      const event = { approve: 'APPROVE', comment: 'COMMENT', 'request-changes': 'REQUEST_CHANGES' }[options.review];
      await this.send(connection, 'POST', `/repos/${repository}/pulls/${number}/reviews`, repository, {
        event: event ?? 'COMMENT',
        commit_id: sha,
        body: typeof options['review-body'] === 'string' ? options['review-body'] : report.message || undefined,
      });
    }
  }

  private async reportCheck(
    connection: GitHubConnection,
    repository: string,
    report: ItemReport,
    state: string,
    url: string,
  ): Promise<void> {
    const sha = report.change.patchset ?? '';
    const name = `${report.tenant}/${report.pipeline}`;
    const key = { connection: connection.name, repository, headSha: sha, name };
    const done = state !== 'in_progress';
    const body = {
      name,
      head_sha: sha,
      details_url: url,
      external_id: report.buildsetUuid,
      status: done ? 'completed' : 'in_progress',
      ...(done ? { conclusion: state, completed_at: this.now().toISOString() } : {}),
      output: { title: `${report.pipeline}: ${report.result ?? 'in progress'}`, summary: checkSummary(report) || name },
    };
    const existing = await this.checkRuns.find(key);
    if (existing !== null) {
      await this.send(connection, 'PATCH', `/repos/${repository}/check-runs/${existing}`, repository, body);
      return;
    }
    const created = await this.send<{ id: number }>(
      connection,
      'POST',
      `/repos/${repository}/check-runs`,
      repository,
      body,
    );
    await this.checkRuns.save(key, created.id, this.now());
  }
}

function list(value: unknown): string[] {
  return value === undefined || value === null ? [] : (Array.isArray(value) ? value : [value]).map(String);
}

const MERGE_METHODS: Record<string, string> = {
  merge: 'merge',
  'merge-resolve': 'merge',
  'merge-recursive': 'merge',
  'merge-ort': 'merge',
  'squash-merge': 'squash',
  rebase: 'rebase',
  'cherry-pick': 'rebase',
};

/**
 * Merge a pull request through the API with the project's merge mode (docs/github.md#reporters);
 * the API's refusal is returned in its own words.
 */
export async function mergePullRequest(
  connection: GitHubConnection,
  repository: string,
  number: number,
  sha: string | null,
  mergeMode: string,
): Promise<{ merged: true; newrev: string } | { merged: false; error: string }> {
  try {
    const body = await connection.client.request<{ sha: string }>(
      'PUT',
      `/repos/${repository}/pulls/${number}/merge`,
      repository,
      { merge_method: MERGE_METHODS[mergeMode] ?? 'merge', ...(sha ? { sha } : {}) },
    );
    return { merged: true, newrev: body.sha };
  } catch (err) {
    const apiMessage = (err as { apiMessage?: string }).apiMessage;
    return { merged: false, error: apiMessage ?? String(err) };
  }
}
