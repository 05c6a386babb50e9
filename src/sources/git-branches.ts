/**
 * The branches of a repository that contain a commit (docs/project-configuration.md#jobs: a tag
 * is matched on the branches containing the tagged commit).
 */
import { git, GitError } from './git-cli';

/**
 * The branches (`refs/heads/`) of the repository at `repo` that contain `revision` (a commit, or
 * an annotated tag, peeled), sorted. A revision the repository lacks is on no branch, as in the
 * reference; any other failure of git is thrown.
 */
export async function branchesContaining(repo: string, revision: string): Promise<string[]> {
  const listed = await git(repo, [
    'for-each-ref',
    `--contains=${revision}^{commit}`,
    '--format=%(refname:strip=2)',
    'refs/heads/',
  ]).catch((error: unknown) => {
    if (error instanceof GitError && error.exitCode === 129) {
      return null; // not an object of the repository ("malformed object name")
    }
    throw error;
  });
  return (listed?.stdout ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .sort();
}
