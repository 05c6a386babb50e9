/**
 * Gerrit-style changes in plain git repositories (docs/gating.md#sluices-own-rules): a change is a ref
 * `refs/changes/<NN>/<N>/<P>` where NN is the last two digits of the change number N,
 * zero-padded, and P the patchset. Its target branch comes from a `Target-Branch:` trailer of
 * the commit message (else the project's default branch), its owner is the commit author, and
 * `Depends-On:` trailers name other changes by change ref or as `<project>:<N>`.
 */
import { git } from './git-cli';

export const CHANGE_REF_PREFIX = 'refs/changes/';

/** A change number and patchset as found in a change ref. */
export interface ChangeId {
  number: number;
  patchset: number;
}

/** A change ref of a repository and the commit it points at. */
export interface ChangeRef extends ChangeId {
  ref: string;
  sha: string;
}

/** What another change names in a `Depends-On:` trailer. */
export type ChangeDependency =
  { kind: 'ref'; ref: string; number: number; patchset: number } | { kind: 'change'; project: string; number: number };

export interface ChangeOwner {
  name: string;
  email: string;
}

/** A change with the details the engine needs (target branch, owner, dependencies). */
export interface ChangeDetails extends ChangeRef {
  project: string;
  targetBranch: string;
  owner: ChangeOwner;
  subject: string;
  message: string;
  dependsOn: ChangeDependency[];
  /** `Depends-On:` values that are neither a change ref nor `<project>:<N>` (kept for reporting). */
  unparsedDependsOn: string[];
}

const CHANGE_REF_PATTERN = /^refs\/changes\/(\d{2})\/([1-9]\d*)\/([1-9]\d*)$/;

/** The ref of patchset `patchset` of change `number`. */
export function formatChangeRef(number: number, patchset: number): string {
  if (!Number.isSafeInteger(number) || number < 1 || !Number.isSafeInteger(patchset) || patchset < 1) {
    throw new RangeError(`change and patchset must be positive integers (got ${number}, ${patchset})`);
  }
  return `${CHANGE_REF_PREFIX}${String(number % 100).padStart(2, '0')}/${number}/${patchset}`;
}

/** Number and patchset of a change ref, or null when `ref` is not a well-formed change ref. */
export function parseChangeRef(ref: string): ChangeId | null {
  const match = CHANGE_REF_PATTERN.exec(ref);
  if (!match) {
    return null;
  }
  const number = Number(match[2]);
  const patchset = Number(match[3]);
  if (!Number.isSafeInteger(number) || !Number.isSafeInteger(patchset)) {
    return null;
  }
  // The shard must agree with the number, otherwise two refs could name one change.
  if (Number(match[1]) !== number % 100) {
    return null;
  }
  return { number, patchset };
}

/** Parse one `Depends-On:` value: a change ref or `<project>:<N>`; null when it is neither. */
export function parseDependsOn(value: string): ChangeDependency | null {
  const text = value.trim();
  const asRef = parseChangeRef(text);
  if (asRef) {
    return { kind: 'ref', ref: text, ...asRef };
  }
  const match = /^([A-Za-z0-9_.\-/]+):([1-9]\d*)$/.exec(text);
  if (match && !match[1].startsWith('/') && !match[1].split('/').includes('..')) {
    const number = Number(match[2]);
    if (Number.isSafeInteger(number)) {
      return { kind: 'change', project: match[1], number };
    }
  }
  return null;
}

/** The default branch of a repository (what its HEAD names), e.g. `master` or `main`. */
export async function defaultBranch(repoDir: string): Promise<string> {
  const { stdout } = await git(repoDir, ['symbolic-ref', '--quiet', 'HEAD']);
  return stdout.trim().replace(/^refs\/heads\//, '');
}

/** Every change ref of a repository, ordered by change number then patchset. */
export async function listChanges(repoDir: string): Promise<ChangeRef[]> {
  const { stdout } = await git(repoDir, ['for-each-ref', '--format=%(refname) %(objectname)', CHANGE_REF_PREFIX]);
  const changes: ChangeRef[] = [];
  for (const line of stdout.split('\n')) {
    const [ref, sha] = line.split(' ');
    const id = ref ? parseChangeRef(ref) : null;
    if (id && sha) {
      changes.push({ ...id, ref, sha });
    }
  }
  return changes.sort((a, b) => a.number - b.number || a.patchset - b.patchset);
}

const FIELD = '%x1e';
const LIST = '%x1f';

/**
 * Read a change's details from a repository holding its ref. `fallbackBranch` is used when the
 * commit has no `Target-Branch:` trailer (normally the project's default branch).
 */
export async function describeChange(
  repoDir: string,
  project: string,
  ref: string,
  fallbackBranch: string,
): Promise<ChangeDetails> {
  const id = parseChangeRef(ref);
  if (!id) {
    throw new Error(`"${ref}" is not a change ref`);
  }
  const format = [
    '%H',
    '%an',
    '%ae',
    '%s',
    `%(trailers:key=Target-Branch,valueonly,separator=${LIST})`,
    `%(trailers:key=Depends-On,valueonly,separator=${LIST})`,
    '%B',
  ].join(FIELD);
  const { stdout } = await git(repoDir, ['show', '-s', `--format=${format}`, `${ref}^{commit}`, '--']);
  const [sha, name, email, subject, targets, depends, ...messageParts] = stdout.split('\x1e');
  const targetBranch = lastNonEmpty(targets.split('\x1f')) ?? fallbackBranch;
  const dependsOn: ChangeDependency[] = [];
  const unparsedDependsOn: string[] = [];
  for (const value of depends
    .split('\x1f')
    .map((v) => v.trim())
    .filter((v) => v !== '')) {
    const parsed = parseDependsOn(value);
    if (parsed) {
      dependsOn.push(parsed);
    } else {
      unparsedDependsOn.push(value);
    }
  }
  return {
    ...id,
    ref,
    sha,
    project,
    targetBranch: targetBranch.replace(/^refs\/heads\//, ''),
    owner: { name, email },
    subject,
    message: messageParts.join('\x1e').replace(/\n+$/, ''),
    dependsOn,
    unparsedDependsOn,
  };
}

function lastNonEmpty(values: string[]): string | undefined {
  const filled = values.map((v) => v.trim()).filter((v) => v !== '');
  return filled[filled.length - 1];
}
