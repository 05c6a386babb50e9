/**
 * What the fake GitLab (test/helpers/fake-gitlab.ts) keeps: projects, merge requests, deliveries,
 * injected faults; and its answer to the branch reads.
 */
import { git } from './fixture-git';

export interface FakeMergeRequest {
  iid: number;
  title: string;
  description: string;
  targetBranch: string;
  headSha: string;
  state: 'opened' | 'merged' | 'closed';
  labels: string[];
  approvedBy: string[];
  notes: string[];
  /** Who wrote each of `notes` (the API's user is `sluice`). */
  noteAuthors: string[];
  /** GitLab's `draft` field (set by the `Draft:` title prefix in GitLab; a test may set it alone). */
  draft: boolean;
  author: string;
  mergeCommitSha: string | null;
  /** The head pipeline's status (null: none); a test sets it through `finishPipeline`. */
  pipeline: string | null;
  /** Set by a merge asked with `auto_merge` / `merge_when_pipeline_succeeds` while the pipeline runs. */
  autoMerge: boolean;
  squashOnMerge?: boolean;
}

export interface FakeProject {
  path: string;
  dir: string;
  /** The project's "Pipelines must succeed": a merge is refused (405) until the head pipeline succeeded. */
  pipelineRequired?: boolean;
  defaultBranch: string;
  mrs: Map<number, FakeMergeRequest>;
  /** Branches protected in GitLab's settings (`main` is, as in a new GitLab project). */
  protectedBranches: Set<string>;
}

/** An error the next API call matching `method` and `path` (a suffix of the path) answers. */
export interface GitLabFault {
  method: string;
  path: string;
  status: number;
  /** Seconds of a 429's `Retry-After`. */
  retryAfter?: number;
  /** Do the call's work first (a note is stored), then answer the error. */
  afterWork?: boolean;
}

export interface GitLabDelivery {
  uuid: string;
  event: string;
  payload: Record<string, unknown>;
  status: number;
  body: string;
}

/** `GET .../repository/branches`: the branches with their `protected` flag, by page; `one`: only that branch (`.../branches/<one>`). */
export async function listBranches(project: FakeProject, url: URL, one?: string): Promise<[number, unknown]> {
  const refs = await git(project.dir, ['for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads/']);
  const all = refs.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '))
    .map(([name, sha]) => ({ name, protected: project.protectedBranches.has(name), commit: { id: sha } }));
  if (one !== undefined) {
    const branch = all.find((b) => b.name === one);
    return branch ? [200, branch] : [404, { message: '404 Branch Not Found' }];
  }
  const page = Number(url.searchParams.get('page') ?? '1');
  const perPage = Number(url.searchParams.get('per_page') ?? '20');
  return [200, all.slice((page - 1) * perPage, page * perPage)];
}
