/** The GitHub REST shapes of the fake's objects (the fields the driver reads, named as GitHub names them). */
import type { FakeCheckRun, FakePull, FakeRepo, FakeStatus } from './repos';

export function repoJson(base: string, repo: FakeRepo): Record<string, unknown> {
  const [owner] = repo.fullName.split('/');
  return {
    id: repo.installationId * 1000,
    full_name: repo.fullName,
    name: repo.fullName.split('/')[1],
    owner: { login: owner },
    default_branch: repo.defaultBranch,
    private: true,
    html_url: `${base}/${repo.fullName}`,
    clone_url: `${base}/${repo.fullName}.git`,
  };
}

export function pullJson(
  base: string,
  repo: FakeRepo,
  pull: FakePull,
  baseSha: string | null,
): Record<string, unknown> {
  return {
    number: pull.number,
    state: pull.state,
    merged: pull.merged,
    merged_by: pull.mergedBy === null ? null : { login: pull.mergedBy },
    draft: pull.draft,
    title: pull.title,
    body: pull.body,
    html_url: `${base}/${repo.fullName}/pull/${pull.number}`,
    url: `${base}/api/v3/repos/${repo.fullName}/pulls/${pull.number}`,
    user: { login: pull.user },
    labels: pull.labels.map((name) => ({ name })),
    head: { ref: pull.headRef, sha: pull.headSha, repo: { full_name: pull.headRepo } },
    base: { ref: pull.base, sha: baseSha, repo: repoJson(base, repo) },
    mergeable: pull.refuseMerge === null,
  };
}

export function statusJson(status: FakeStatus): Record<string, unknown> {
  return {
    id: status.id,
    state: status.state,
    context: status.context,
    description: status.description,
    target_url: status.targetUrl,
    creator: { login: status.creator },
  };
}

export function checkRunJson(run: FakeCheckRun): Record<string, unknown> {
  return {
    id: run.id,
    name: run.name,
    head_sha: run.headSha,
    status: run.status,
    conclusion: run.conclusion,
    details_url: run.detailsUrl,
    external_id: run.externalId,
    output: run.output,
    app: { slug: run.app },
  };
}
