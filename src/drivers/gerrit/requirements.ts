/**
 * The Gerrit driver's pipeline requirements (docs/gerrit.md#requirements): `approval` entries
 * (`username`, `email`, `newer-than`, `older-than` and label values), `open`, `current-patchset`,
 * `wip`, `status` and `hashtags`, validated and judged on a change's Gerrit state. Trigger filters
 * use the same approval entries for `require-approval` / `reject-approval` (src/drivers/gerrit/rules.ts).
 */
import type { ChangeInfo, GerritChangeState } from '../../model/changes';
import type { OptionMap, OptionReaders } from '../driver';
import { compilePattern } from '../filter-patterns';
import { givenWithin, timeToSeconds } from '../review-age';

export const REQUIREMENT_KEYS = ['approval', 'open', 'current-patchset', 'wip', 'status', 'hashtags'];
/** Keys of an approval entry that are no label (the reference's `-filter` spellings are older names). */
const APPROVAL_FIELDS = ['username', 'email', 'older-than', 'newer-than', 'username-filter', 'email-filter'];
const STATUSES = ['NEW', 'MERGED', 'ABANDONED', 'DRAFT'];

export function list(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

export function strs(value: unknown): string[] {
  return list(value).map(String);
}

/** A pattern of the configuration matched at the start of the value, as the reference's `re.match`. */
export function prefixPattern(text: string): RegExp {
  return compilePattern(text, 'start');
}

/** A pattern searched for anywhere in the value (the reference's `re.search`). */
export function searchPattern(text: string): RegExp {
  return compilePattern(text, 'search');
}

/** Check that every pattern compiles (a bad one is a configuration error). */
export function checkPatterns(value: unknown, read: OptionReaders): void {
  for (const text of strs(value)) {
    try {
      prefixPattern(text);
    } catch (err) {
      read.fail(`Invalid regular expression "${text}": ${(err as Error).message}`);
    }
  }
}

/** A vote value as the configuration writes it (`2`, `"+2"`, `-1`), or NaN. */
function voteValue(value: unknown): number {
  return typeof value === 'number'
    ? value
    : typeof value === 'string' && /^[+-]?\d+$/.test(value)
      ? Number(value)
      : NaN;
}

/** Validate one approval entry (`{username: ..., Code-Review: 2}`) of a requirement or a trigger filter. */
export function validateApproval(entry: unknown, read: OptionReaders, key: string): void {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    read.fail(`${key} entries must be dictionaries`);
  }
  for (const [field, value] of Object.entries(entry as OptionMap)) {
    if (field === 'newer-than' || field === 'older-than') {
      if (timeToSeconds(value) === undefined) {
        read.fail(`Unable to parse time value: ${String(value)}`);
      }
    } else if (APPROVAL_FIELDS.includes(field)) {
      checkPatterns(value, read);
    } else if (list(value).length === 0 || list(value).some((v) => Number.isNaN(voteValue(v)))) {
      read.fail(`${key}: the value of label "${field}" must be a vote (an integer) or a list of votes`);
    }
  }
}

/** Validate a Gerrit `require` / `reject` entry. */
export function validateRequirement(options: OptionMap, read: OptionReaders, attribute: string): void {
  read.keys(options, REQUIREMENT_KEYS, [], `data['${attribute}']`);
  for (const key of ['open', 'current-patchset', 'wip']) {
    read.bool(options, key);
  }
  for (const status of strs(options.status)) {
    if (!STATUSES.includes(status)) {
      read.fail(`Unknown gerrit change status "${status}" (expected one of ${STATUSES.join(', ')})`);
    }
  }
  checkPatterns(options.hashtags, read);
  list(options.approval).forEach((entry) => validateApproval(entry, read, 'approval'));
}

interface ApprovalSpec {
  text: string;
  username: RegExp[];
  email: RegExp[];
  newerThan: number | undefined;
  olderThan: number | undefined;
  labels: Array<{ label: string; values: number[] }>;
}

export function approvalSpec(entry: OptionMap): ApprovalSpec {
  const labels = Object.entries(entry)
    .filter(([field]) => !APPROVAL_FIELDS.includes(field))
    .map(([label, value]) => ({ label, values: list(value).map(voteValue) }));
  return {
    text: JSON.stringify(entry),
    username: strs(entry.username ?? entry['username-filter']).map(prefixPattern),
    email: strs(entry.email ?? entry['email-filter']).map(prefixPattern),
    newerThan: timeToSeconds(entry['newer-than']),
    olderThan: timeToSeconds(entry['older-than']),
    labels,
  };
}

/** Whether a change's current votes satisfy an approval entry: each label by a vote of a matching voter. */
export function approvalMet(spec: ApprovalSpec, approvals: GerritChangeState['approvals'], now: Date): boolean {
  const voterMatches = (a: GerritChangeState['approvals'][number]) =>
    (spec.username.length === 0 || spec.username.some((p) => p.test(a.username))) &&
    (spec.email.length === 0 || spec.email.some((p) => p.test(a.email))) &&
    givenWithin(a.grantedOn, now, spec.newerThan, spec.olderThan);
  if (spec.labels.length === 0) {
    return approvals.some(voterMatches);
  }
  return spec.labels.every(({ label, values }) =>
    approvals.some((a) => a.label === label && values.includes(a.value) && voterMatches(a)),
  );
}

/**
 * The check of a Gerrit `require` (why the change fails it) or `reject` entry (why the change
 * matches it); null when it passes. A change of another driver never meets a Gerrit requirement.
 */
export function gerritRequirementCheck(
  options: OptionMap,
  mode: 'require' | 'reject',
): (change: ChangeInfo, now: Date) => string | null {
  const approvals = list(options.approval).map((entry) => approvalSpec(entry as OptionMap));
  const flags = (['open', 'current-patchset', 'wip'] as const).filter((key) => typeof options[key] === 'boolean');
  const statuses = strs(options.status);
  const hashtags = strs(options.hashtags).map((text) => ({ text, pattern: prefixPattern(text) }));
  const requiring = mode === 'require';
  return (change, now) => {
    const state = change.gerrit;
    if (state === undefined || change.kind !== 'change') {
      return requiring ? 'it is not a Gerrit change (require)' : null;
    }
    const facts: Record<(typeof flags)[number], boolean> = {
      open: state.status === 'NEW',
      'current-patchset': change.currentPatchset !== false,
      wip: state.wip,
    };
    for (const key of flags) {
      if ((facts[key] === options[key]) !== requiring) {
        return `${key} is ${String(facts[key])} (${mode} ${key}: ${String(options[key])})`;
      }
    }
    if (statuses.length > 0 && statuses.includes(state.status) !== requiring) {
      return `its status is ${state.status} (${mode} status: ${statuses.join(', ')})`;
    }
    for (const { text, pattern } of hashtags) {
      const has = state.hashtags.some((tag) => pattern.test(tag));
      if (has !== requiring) {
        return `${has ? 'it has' : 'it lacks'} a hashtag matching ${text} (${mode} hashtags)`;
      }
    }
    for (const spec of approvals) {
      const met = approvalMet(spec, state.approvals, now);
      if (met !== requiring) {
        return `${met ? 'it has' : 'it lacks'} approvals matching ${spec.text} (${mode} approval)`;
      }
    }
    return null;
  };
}
