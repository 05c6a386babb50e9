/**
 * The layout a ref of a project would run with (docs/rest.md#deliberate-differences-from-the-reference,
 * `freeze-pipeline`).
 *
 * - A branch (`master`, `refs/heads/master`) runs with the tenant's current layout; no changed
 *   files are known, so file matchers are not evaluated (as for the engine's branch items).
 * - A tag (`refs/tags/<tag>`) runs with the current layout, matched on its ref and on the
 *   branches containing the tagged commit (docs/project-configuration.md#jobs); no changed files.
 * - A change ref (`refs/changes/NN/N/P`) targets the branch of its `Target-Branch:` trailer (else
 *   the project's default branch). Its changed files are the files between the merge-base with
 *   that branch and the change. When the project is untrusted, the branch's configuration is
 *   loaded and the change touches a configuration location, the layout is rebuilt from the same
 *   inputs as the current one with that project-branch's files replaced by the files of the
 *   change merged into the branch tip. The merge (`git merge-tree`) writes its objects into a
 *   scratch object directory, so the repository itself is never written to.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ConfigError } from './config-error';
import type { Layout, LayoutProject } from './layout';
import { buildLayout, type BuildLayoutInput } from './layout-builder';
import { hasControlCharacter } from '../model/value-checks';
import { branchesContaining } from '../sources/git-branches';
import { git, GitError } from '../sources/git-cli';
import { describeChange, parseChangeRef, CHANGE_REF_PREFIX, type ChangeId } from '../sources/git-changes';
import { readConfigSnapshots, type GitConnection } from '../sources/git-connection';
import { isConfigPath } from '../model/proposed-config';

export { isConfigPath };

/** The ref a proposed layout was computed for. */
export type ProposedRef =
  | { kind: 'branch'; ref: string; branch: string; sha: string }
  /** `branch`: the project's default branch, as the engine gives a tag's item. */
  | { kind: 'tag'; ref: string; branch: string; sha: string; containingBranches: string[] }
  | { kind: 'change'; ref: string; number: number; patchset: number; branch: string; sha: string; files: string[] };

export type ProposedLayout =
  | {
      status: 'ok';
      ref: ProposedRef;
      /** The current layout, or the speculative one when the change's configuration was applied. */
      layout: Layout;
      speculative: boolean;
      /** Errors (severity `error`) of the speculative layout that the current layout does not have. */
      newErrors: ConfigError[];
    }
  /** The ref is not a branch name, `refs/heads/<branch>`, a tag or a well-formed change ref. */
  | { status: 'invalid-ref'; message: string }
  /** The branch or change ref does not exist in the project (or the change's target branch does not). */
  | { status: 'unknown-ref'; message: string }
  /** The change does not merge into its branch. */
  | { status: 'conflict'; message: string };

/** What the speculative part of a request produced: the merged layout, or why there is none. */
export type SpeculativeLayout =
  { status: 'ok'; layout: Layout; newErrors: ConfigError[] } | { status: 'conflict'; message: string };

/**
 * Remembers speculative layouts by what determines them: the current layout, the project, the
 * branch tip and the change's commit. A public read must not rebuild a whole tenant layout on
 * every call for the same change.
 */
export type SpeculativeMemo = (key: string, build: () => Promise<SpeculativeLayout>) => Promise<SpeculativeLayout>;

export interface ProposedLayoutRequest {
  /** The layout the request was answered from, and what it was built from. */
  layout: Layout;
  input: BuildLayoutInput;
  project: LayoutProject;
  connection: GitConnection;
  ref: string;
  /** Where scratch object directories are created (removed before returning). */
  scratchDir: string;
  uuid: string;
  now: Date;
  /** Reuses speculative layouts; without it each request builds its own. */
  memo?: SpeculativeMemo;
}

type ParsedRef =
  { kind: 'branch'; branch: string } | { kind: 'tag' } | { kind: 'change'; id: ChangeId } | { kind: 'invalid' };

/** A branch name, `refs/heads/<branch>`, `refs/tags/<tag>` or a change ref; anything else under `refs/` is invalid. */
export function parseProposedRef(ref: string): ParsedRef {
  if (ref.startsWith(CHANGE_REF_PREFIX)) {
    const id = parseChangeRef(ref);
    return id === null ? { kind: 'invalid' } : { kind: 'change', id };
  }
  if (ref.startsWith('refs/') && !ref.startsWith('refs/heads/') && !ref.startsWith('refs/tags/')) {
    return { kind: 'invalid' };
  }
  const tag = ref.startsWith('refs/tags/');
  const name = ref.slice(tag ? 'refs/tags/'.length : ref.startsWith('refs/heads/') ? 'refs/heads/'.length : 0);
  // Characters git never allows in a branch or tag name (git check-ref-format).
  if (name === '' || hasControlCharacter(name) || /[\s~^:?*[\\]/.test(name)) {
    return { kind: 'invalid' };
  }
  return tag ? { kind: 'tag' } : { kind: 'branch', branch: name };
}

const INVALID_REF =
  'expected a branch name, refs/heads/<branch>, a tag refs/tags/<tag> or a change ref refs/changes/NN/N/P';

/** Resolve `request.ref` and build the layout it would run with. */
export async function proposedLayout(request: ProposedLayoutRequest): Promise<ProposedLayout> {
  const { project, connection, ref, layout } = request;
  const parsed = parseProposedRef(ref);
  if (parsed.kind === 'invalid') {
    return { status: 'invalid-ref', message: `Invalid ref "${ref}": ${INVALID_REF}` };
  }
  if (parsed.kind === 'branch') {
    const sha = await branchTip(connection, project.name, parsed.branch);
    if (sha === undefined) {
      return { status: 'unknown-ref', message: `Unknown ref ${ref} in project ${project.name}` };
    }
    return {
      status: 'ok',
      ref: { kind: 'branch', ref: `refs/heads/${parsed.branch}`, branch: parsed.branch, sha },
      layout,
      speculative: false,
      newErrors: [],
    };
  }
  const repo = await connection.repositoryPath(project.name);
  let sha = await commitOf(repo, ref);
  if (sha === undefined) {
    await connection.refresh(project.name);
    sha = await commitOf(repo, ref);
  }
  if (sha === undefined) {
    return { status: 'unknown-ref', message: `Unknown ref ${ref} in project ${project.name}` };
  }
  if (parsed.kind === 'tag') {
    const containingBranches = await branchesContaining(repo, sha);
    const branch = project.metadata.defaultBranch;
    return {
      status: 'ok',
      ref: { kind: 'tag', ref, branch, sha, containingBranches },
      layout,
      speculative: false,
      newErrors: [],
    };
  }
  const change = await describeChange(repo, project.name, ref, project.metadata.defaultBranch);
  const branch = change.targetBranch;
  const describe = `Change ${parsed.id.number},${parsed.id.patchset}`;
  const tip = await branchTip(connection, project.name, branch);
  if (tip === undefined) {
    return {
      status: 'unknown-ref',
      message: `${describe} targets branch ${branch}, which does not exist in project ${project.name}`,
    };
  }
  const base = await mergeBase(repo, tip, sha);
  if (base === undefined) {
    return { status: 'conflict', message: `${describe} has no common history with branch ${branch}` };
  }
  const files =
    base === sha
      ? []
      : (await git(repo, ['diff', '--name-only', '--no-renames', '-z', base, sha])).stdout
          .split('\0')
          .filter((f) => f !== '');
  const proposed: ProposedRef = {
    kind: 'change',
    ref,
    number: parsed.id.number,
    patchset: parsed.id.patchset,
    branch,
    sha,
    files,
  };
  const loaded = request.input.projects.find((p) => p.canonicalName === project.canonicalName);
  const extraPaths = loaded?.tpc.extraConfigPaths ?? [];
  if (
    project.trusted ||
    loaded === undefined ||
    !loaded.branches.includes(branch) ||
    !files.some((f) => isConfigPath(f, extraPaths))
  ) {
    return { status: 'ok', ref: proposed, layout, speculative: false, newErrors: [] };
  }
  const build = async (): Promise<SpeculativeLayout> => {
    const snapshot = await mergedConfig(repo, { tip, base, sha, extraPaths, scratchDir: request.scratchDir });
    if (snapshot.status === 'conflict') {
      return { status: 'conflict', message: `${describe} does not merge into branch ${branch}: ${snapshot.detail}` };
    }
    const speculative = await buildLayout({
      ...request.input,
      uuid: request.uuid,
      now: request.now,
      projects: request.input.projects.map((p) =>
        p !== loaded
          ? p
          : {
              ...p,
              files: new Map(p.files).set(branch, snapshot.files),
              ignoredLocations: new Map(p.ignoredLocations).set(branch, snapshot.ignoredLocations),
            },
      ),
    });
    const known = new Set(layout.errors.map((e) => e.keyHash));
    return {
      status: 'ok',
      layout: speculative,
      newErrors: speculative.errors.filter((e) => e.severity === 'error' && !known.has(e.keyHash)),
    };
  };
  const key = [layout.uuid, project.canonicalName, branch, tip, sha].join('\0');
  const result = request.memo ? await request.memo(key, build) : await build();
  return result.status === 'conflict'
    ? result
    : { status: 'ok', ref: proposed, layout: result.layout, speculative: true, newErrors: result.newErrors };
}

async function branchTip(connection: GitConnection, project: string, branch: string): Promise<string | undefined> {
  const find = async () => (await connection.refs(project)).branches.find((b) => b.name === branch)?.sha;
  const local = await find();
  if (local !== undefined) {
    return local;
  }
  await connection.refresh(project);
  return find();
}

async function commitOf(repo: string, ref: string): Promise<string | undefined> {
  const result = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => undefined);
  return result?.stdout.trim() || undefined;
}

async function mergeBase(repo: string, a: string, b: string): Promise<string | undefined> {
  const result = await git(repo, ['merge-base', a, b]).catch((err: unknown) => {
    // Exit code 1: no common ancestor.
    if (err instanceof GitError && err.exitCode === 1) {
      return undefined;
    }
    throw err;
  });
  return result?.stdout.trim() || undefined;
}

type MergedConfig =
  | { status: 'ok'; files: Array<{ path: string; text: string }>; ignoredLocations: string[] }
  | { status: 'conflict'; detail: string };

/**
 * The configuration files of `sha` merged into `tip`. When the change sits on the tip its own
 * commit is read; otherwise `git merge-tree` computes the merged tree, with a scratch object
 * directory (the repository's objects as an alternate) receiving what it writes.
 */
async function mergedConfig(
  repo: string,
  options: { tip: string; base: string; sha: string; extraPaths: readonly string[]; scratchDir: string },
): Promise<MergedConfig> {
  if (options.base === options.tip) {
    const [snapshot] = await readConfigSnapshots(repo, [options.sha], options.extraPaths);
    return { status: 'ok', ...snapshot };
  }
  mkdirSync(options.scratchDir, { recursive: true });
  const scratch = mkdtempSync(path.join(options.scratchDir, 'merge-'));
  try {
    const objects = path.resolve(repo, (await git(repo, ['rev-parse', '--git-path', 'objects'])).stdout.trim());
    const env = { GIT_OBJECT_DIRECTORY: scratch, GIT_ALTERNATE_OBJECT_DIRECTORIES: objects };
    let tree: string;
    try {
      tree = (
        await git(repo, ['merge-tree', '--write-tree', '--name-only', '--no-messages', options.tip, options.sha], env)
      ).stdout
        .split('\n')[0]
        .trim();
    } catch (err) {
      if (err instanceof GitError && err.exitCode === 1) {
        // Output: the tree, then the conflicted files.
        const conflicted = [
          ...new Set(
            err.stdout
              .split('\n')
              .slice(1)
              .map((line) => line.trim())
              .filter((line) => line !== ''),
          ),
        ];
        return { status: 'conflict', detail: `conflicts in ${conflicted.join(', ')}` };
      }
      throw err;
    }
    const [snapshot] = await readConfigSnapshots(repo, [tree], options.extraPaths, env);
    return { status: 'ok', ...snapshot };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
