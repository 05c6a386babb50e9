/** The fake GitHub's repository endpoints (`/repos/{owner}/{repo}/...`), answered from its in-memory state. */
import { git } from '../fixture-git';
import { checkRunJson, repoJson, statusJson } from './json';
import { revParse, type FakePull, type FakeRepo, type MergeMethod } from './repos';
import type { FakeGitHub } from './server';

export interface RouteResult {
  status: number;
  body: unknown;
}

const notFound: RouteResult = { status: 404, body: { message: 'Not Found' } };

export async function handleRepoRoute(
  hub: FakeGitHub,
  method: string,
  route: string,
  query: URLSearchParams,
  body: Record<string, unknown>,
): Promise<RouteResult> {
  const match = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(route);
  const repo = match ? hub.repos.get(match[1]) : undefined;
  if (!match || !repo) {
    return notFound;
  }
  const rest = match[2] ?? '';
  const key = `${method} ${rest.replace(/\/\d+(?=\/|$)/g, '/:n').replace(/\/(commits|statuses)\/[0-9a-f]{40}/, '/$1/:sha')}`;
  const number = Number(/\/(?:pulls|issues|check-runs)\/(\d+)/.exec(rest)?.[1] ?? NaN);
  const pull = repo.pulls.get(number);
  const sha = /[0-9a-f]{40}/.exec(rest)?.[0] ?? '';
  const withPull = (fn: (p: FakePull) => RouteResult | Promise<RouteResult>) => (pull ? fn(pull) : notFound);
  switch (key) {
    case 'GET ':
      return { status: 200, body: repoJson(hub.url, repo) };
    case 'GET /pulls': {
      const state = query.get('state') ?? 'open';
      const pulls = [...repo.pulls.values()].filter((p) => state === 'all' || p.state === state);
      return { status: 200, body: await Promise.all(pulls.map((p) => hub.pullPayload(repo, p))) };
    }
    case 'GET /pulls/:n':
      return withPull(async (p) => ({ status: 200, body: await hub.pullPayload(repo, p) }));
    case 'GET /pulls/:n/reviews':
      return withPull((p) => ({
        status: 200,
        body: p.reviews.map((r) => ({
          id: r.id,
          user: { login: r.user },
          state: r.state,
          commit_id: r.commitId,
          submitted_at: r.submittedAt,
          body: r.body,
        })),
      }));
    case 'POST /pulls/:n/reviews':
      return withPull((p) => {
        const events: Record<string, FakePull['reviews'][number]['state']> = {
          APPROVE: 'APPROVED',
          REQUEST_CHANGES: 'CHANGES_REQUESTED',
          COMMENT: 'COMMENTED',
        };
        const state = events[String(body.event)];
        if (!state) {
          return { status: 422, body: { message: `Unknown review event ${String(body.event)}` } };
        }
        const review = {
          id: hub.id(),
          user: 'sluice[bot]',
          state,
          commitId: p.headSha,
          submittedAt: new Date().toISOString(),
          body: String(body.body ?? ''),
        };
        p.reviews.push(review);
        return { status: 200, body: { id: review.id, state } };
      });
    case 'PUT /pulls/:n/merge':
      return withPull((p) =>
        hub.merge(repo, p, (body.merge_method as MergeMethod | undefined) ?? 'merge', body.sha as string | undefined),
      );
    case 'GET /issues/:n/comments':
      return withPull((p) => ({
        status: 200,
        body: p.comments.map((c) => ({ id: c.id, body: c.body, user: { login: c.user } })),
      }));
    case 'POST /issues/:n/comments':
      return withPull((p) => {
        const comment = { id: hub.id(), user: 'sluice[bot]', body: String(body.body ?? '') };
        p.comments.push(comment);
        return { status: 201, body: { id: comment.id } };
      });
    case 'POST /issues/:n/labels':
      return withPull((p) => {
        p.labels = [...new Set([...p.labels, ...((body.labels as string[] | undefined) ?? [])])];
        return { status: 200, body: p.labels.map((name) => ({ name })) };
      });
    case 'GET /commits/:sha/status': {
      const statuses = latestStatuses(repo, sha);
      return { status: 200, body: { sha, state: combined(statuses), statuses: statuses.map(statusJson) } };
    }
    case 'GET /commits/:sha/statuses':
      return { status: 200, body: (repo.statuses.get(sha) ?? []).map(statusJson).reverse() };
    case 'POST /statuses/:sha': {
      const status = {
        id: hub.id(),
        state: String(body.state),
        context: String(body.context ?? 'default'),
        description: (body.description as string | undefined) ?? null,
        targetUrl: (body.target_url as string | undefined) ?? null,
        creator: 'sluice[bot]',
      };
      repo.statuses.set(sha, [...(repo.statuses.get(sha) ?? []), status]);
      return { status: 201, body: statusJson(status) };
    }
    case 'GET /commits/:sha/check-runs': {
      const runs = repo.checkRuns.filter((r) => r.headSha === sha);
      return { status: 200, body: { total_count: runs.length, check_runs: runs.map(checkRunJson) } };
    }
    case 'POST /check-runs': {
      const run = {
        id: hub.id(),
        name: String(body.name),
        headSha: String(body.head_sha),
        status: String(body.status ?? 'queued'),
        conclusion: (body.conclusion as string | undefined) ?? null,
        detailsUrl: (body.details_url as string | undefined) ?? null,
        externalId: (body.external_id as string | undefined) ?? null,
        output: (body.output as FakeRepo['checkRuns'][number]['output']) ?? null,
        app: 'sluice',
      };
      repo.checkRuns.push(run);
      return { status: 201, body: checkRunJson(run) };
    }
    case 'PATCH /check-runs/:n': {
      const run = repo.checkRuns.find((r) => r.id === number);
      if (!run) {
        return notFound;
      }
      run.status = String(body.status ?? run.status);
      run.conclusion = (body.conclusion as string | undefined) ?? run.conclusion;
      run.detailsUrl = (body.details_url as string | undefined) ?? run.detailsUrl;
      run.output = (body.output as typeof run.output) ?? run.output;
      return { status: 200, body: checkRunJson(run) };
    }
    case 'GET /branches': {
      const names = (await branchNames(repo)).filter(
        (name) => query.get('protected') !== 'true' || repo.protected.has(name),
      );
      const list = await Promise.all(
        names.map(async (name) => ({
          name,
          protected: repo.protected.has(name),
          commit: { sha: await revParse(repo, `refs/heads/${name}`) },
        })),
      );
      return { status: 200, body: list };
    }
    default:
      break;
  }
  const label = /^DELETE \/issues\/:n\/labels\/(.+)$/.exec(key);
  if (label) {
    return withPull((p) => {
      const name = decodeURIComponent(label[1]);
      if (!p.labels.includes(name)) {
        return { status: 404, body: { message: 'Label does not exist' } };
      }
      p.labels = p.labels.filter((l) => l !== name);
      return { status: 200, body: p.labels.map((n) => ({ name: n })) };
    });
  }
  const permission = /^GET \/collaborators\/([^/]+)\/permission$/.exec(key);
  if (permission) {
    return { status: 200, body: { permission: repo.permissions.get(permission[1]) ?? 'read' } };
  }
  const protection = /^GET \/branches\/(.+)\/protection$/.exec(key);
  if (protection) {
    const entry = repo.protected.get(decodeURIComponent(protection[1]));
    return entry
      ? {
          status: 200,
          body: {
            required_status_checks: { contexts: entry.requiredContexts },
            lock_branch: { enabled: entry.locked === true },
          },
        }
      : { status: 404, body: { message: 'Branch not protected' } };
  }
  return notFound;
}

function latestStatuses(repo: FakeRepo, sha: string): FakeRepo['statuses'] extends Map<string, infer S> ? S : never {
  const seen = new Map<string, FakeRepo['statuses'] extends Map<string, Array<infer T>> ? T : never>();
  for (const status of repo.statuses.get(sha) ?? []) {
    seen.set(status.context, status);
  }
  return [...seen.values()];
}

function combined(statuses: Array<{ state: string }>): string {
  if (statuses.some((s) => s.state === 'failure' || s.state === 'error')) {
    return 'failure';
  }
  if (statuses.length === 0 || statuses.some((s) => s.state === 'pending')) {
    return 'pending';
  }
  return 'success';
}

async function branchNames(repo: FakeRepo): Promise<string[]> {
  const { stdout } = await git(repo.dir, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
  return stdout.split('\n').filter(Boolean);
}
