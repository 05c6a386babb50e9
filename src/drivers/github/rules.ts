/**
 * The GitHub driver's trigger filters and pipeline requirements, with the reference's attribute
 * names (docs/github.md#trigger-filters, docs/github.md#requirements): validation of the
 * configuration and the compiled predicates the engine calls through its layout port.
 */
import type { ChangeInfo } from '../../model/changes';
import type { TriggerEvent } from '../../model/engine-events';
import { ConfigObjectError, ErrorName } from '../../config/config-error';
import { warnDeprecatedRegexes } from '../../config/regex';
import { checkKeys, type ConfigMap } from '../../config/schema-helpers';
import { githubTriggerWarnings } from './trigger-warnings';

export const GITHUB_EVENTS = ['pull_request', 'pull_request_review', 'push', 'check_run'];
const GITHUB_TRIGGER_KEYS = [
  'event',
  'action',
  'branch',
  'ref',
  'comment',
  'label',
  'unlabel',
  'state',
  'status',
  'check',
  'require',
  'reject',
  'require-status',
  'debug',
];
const REQUIREMENT_KEYS = ['open', 'merged', 'current-patchset', 'draft', 'review', 'label', 'status'];
export const GITHUB_REPORTER_KEYS = [
  'status',
  'status-url',
  'check',
  'comment',
  'merge',
  'label',
  'unlabel',
  'review',
  'review-body',
];

function list(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

function strs(value: unknown): string[] {
  return list(value).map(String);
}

/** Check that every pattern compiles (a bad one is a configuration error naming the attribute). */
function regexes(value: unknown, attribute: string): void {
  for (const text of strs(value)) {
    try {
      pattern(text);
    } catch (err) {
      throw new ConfigObjectError(
        `Invalid regular expression "${text}": ${(err as Error).message}`,
        ErrorName.syntax,
        attribute,
      );
    }
  }
}

/**
 * A filter's regex: a leading `(?i)` (Python's inline flag, common in the reference's
 * `comment` filters) makes it case-insensitive; `(?P<name>` groups are accepted.
 */
function pattern(text: string, anchored = true): RegExp {
  const caseless = text.startsWith('(?i)');
  const body = (caseless ? text.slice(4) : text).replace(/\(\?P</g, '(?<');
  return new RegExp(anchored ? `^(?:${body})$` : body, caseless ? 'i' : '');
}

/** Full-string regex match, as the reference's filters use (the pattern is anchored). */
function fullMatch(anchored: RegExp, value: string): boolean {
  return anchored.test(value);
}

/**
 * Validate one GitHub trigger filter (throws ConfigObjectError); deprecated forms and RE2-less
 * regexes add warnings to `warnings`.
 */
export function validateGitHubTrigger(filter: ConfigMap, attribute: string, warnings: ConfigObjectError[]): void {
  checkKeys(filter, new Set(GITHUB_TRIGGER_KEYS), ['event'], `data['${attribute}']`);
  for (const event of strs(filter.event)) {
    if (!GITHUB_EVENTS.includes(event)) {
      throw new ConfigObjectError(
        `Unknown github event "${event}" (expected one of ${GITHUB_EVENTS.join(', ')})`,
        ErrorName.syntax,
        attribute,
      );
    }
  }
  for (const key of ['branch', 'ref', 'comment', 'status', 'check', 'require-status']) {
    regexes(filter[key], attribute);
  }
  for (const key of ['branch', 'ref', 'comment']) {
    warnDeprecatedRegexes(strs(filter[key]), attribute, warnings);
  }
  warnings.push(...githubTriggerWarnings(filter, attribute));
  for (const key of ['require', 'reject']) {
    if (filter[key] !== undefined) {
      validateGitHubRequirement(filter[key] as ConfigMap, attribute);
    }
  }
}

/** Validate a GitHub pipeline `require`/`reject` entry. */
export function validateGitHubRequirement(options: ConfigMap, attribute: string): void {
  checkKeys(options, new Set(REQUIREMENT_KEYS), [], `data['${attribute}']`);
  for (const key of ['open', 'merged', 'current-patchset', 'draft']) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      throw new ConfigObjectError(`${key} must be a boolean`, ErrorName.syntax, attribute);
    }
  }
  for (const review of list(options.review)) {
    if (review === null || typeof review !== 'object') {
      throw new ConfigObjectError('review entries must be dictionaries', ErrorName.syntax, attribute);
    }
    checkKeys(
      review as ConfigMap,
      new Set(['username', 'type', 'permission', 'email', 'newer-than', 'older-than']),
      [],
      `data['${attribute}']`,
    );
    for (const key of ['newer-than', 'older-than']) {
      const value = (review as ConfigMap)[key];
      if (value !== undefined && timeToSeconds(value) === undefined) {
        throw new ConfigObjectError(`Unable to parse time value: ${String(value)}`, ErrorName.syntax, attribute);
      }
    }
  }
  regexes(options.status, attribute);
}

const TIME_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `30s`, `5m`, `2h`, `1d`, `1w` in seconds; undefined for anything else. */
function timeToSeconds(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^(\d+)([smhdw])$/.exec(value) : null;
  return match === null ? undefined : Number(match[1]) * TIME_UNITS[match[2]];
}

/**
 * The requirement check of a GitHub `require` (mode `require`: why the change fails it) or
 * `reject` entry (mode `reject`: why the change matches it); null when it passes.
 */
export function githubRequirementCheck(
  options: Record<string, unknown>,
  mode: 'require' | 'reject',
): (change: ChangeInfo, now: Date) => string | null {
  const reviews = list(options.review).map((entry) => {
    const spec = entry as Record<string, unknown>;
    return {
      text: JSON.stringify(spec),
      username: spec.username === undefined ? null : pattern(String(spec.username)),
      type: spec.type === undefined ? null : pattern(String(spec.type)),
      permission: spec.permission === undefined ? null : pattern(String(spec.permission)),
      newerThan: timeToSeconds(spec['newer-than']),
      olderThan: timeToSeconds(spec['older-than']),
    };
  });
  const labels = strs(options.label);
  const statuses = strs(options.status).map((text) => ({ pattern: text, regex: pattern(text) }));
  // Commit statuses and check runs alike, as GitHub's branch protection counts both (docs/github.md#requirements).
  const flags = (['open', 'merged', 'current-patchset', 'draft'] as const).filter(
    (key) => typeof options[key] === 'boolean',
  );
  return (change, now) => {
    const review = change.review;
    if (!review || change.kind !== 'change') {
      return mode === 'require' ? `it is not a pull request (${mode})` : null;
    }
    const facts: Record<(typeof flags)[number], boolean> = {
      open: review.state === 'open' && !change.merged,
      merged: change.merged,
      'current-patchset': change.currentPatchset !== false,
      draft: review.draft,
    };
    const reasons: string[] = [];
    for (const key of flags) {
      const holds = facts[key] === options[key];
      if ((mode === 'require') === holds) {
        continue;
      }
      reasons.push(`${key} is ${String(facts[key])} (${mode} ${key}: ${String(options[key])})`);
    }
    for (const spec of reviews) {
      const found = review.reviews.some(
        (r) =>
          (spec.username === null || fullMatch(spec.username, r.username)) &&
          (spec.type === null || fullMatch(spec.type, r.type)) &&
          (spec.permission === null || fullMatch(spec.permission, r.permission)) &&
          submittedWithin(r.submittedAt, now, spec.newerThan, spec.olderThan),
      );
      if (found !== (mode === 'require')) {
        reasons.push(`${found ? 'it has' : 'it lacks'} a review matching ${spec.text} (${mode} review)`);
      }
    }
    for (const label of labels) {
      const has = review.labels.includes(label);
      if (has !== (mode === 'require')) {
        reasons.push(`${has ? 'it has' : 'it lacks'} the label ${label} (${mode} label)`);
      }
    }
    for (const status of statuses) {
      const has = [...review.statuses, ...review.checks].some((s) => fullMatch(status.regex, s));
      if (has !== (mode === 'require')) {
        reasons.push(`${has ? 'it has' : 'it lacks'} a status matching ${status.pattern} (${mode} status)`);
      }
    }
    return reasons.length === 0 ? null : reasons[0];
  };
}

/**
 * `newer-than`: the review was submitted less than that long before `now`; `older-than`: at least
 * that long before (docs/github.md#requirements). A review without a submission time meets neither.
 */
function submittedWithin(
  submittedAt: string,
  now: Date,
  newerThan: number | undefined,
  olderThan: number | undefined,
): boolean {
  if (newerThan === undefined && olderThan === undefined) {
    return true;
  }
  const submitted = Date.parse(submittedAt);
  if (Number.isNaN(submitted)) {
    return false;
  }
  const age = (now.getTime() - submitted) / 1000;
  return (newerThan === undefined || age <= newerThan) && (olderThan === undefined || age > olderThan);
}

/** What a compiled GitHub trigger filter judges: the event, and its change once read. */
export function compileGitHubTrigger(
  filter: Record<string, unknown>,
): (event: TriggerEvent, judged?: { change: ChangeInfo; now: Date }) => boolean {
  const events = strs(filter.event);
  // The deprecated `requested` check-run action means `rerequested`.
  const actions = strs(filter.action).map((action) => (action === 'requested' ? 'rerequested' : action));
  const branches = strs(filter.branch).map((text) => pattern(text));
  const refs = strs(filter.ref).map((text) => pattern(text));
  // Comment regexes are searched for in the comment, as the reference does.
  const comments = strs(filter.comment).map((text) => pattern(text, false));
  const labels = strs(filter.label);
  const unlabels = strs(filter.unlabel);
  const states = strs(filter.state);
  const statuses = strs(filter.status).map((text) => pattern(text));
  const checks = strs(filter.check).map((text) => pattern(text));
  const require =
    filter.require === undefined ? null : githubRequirementCheck(filter.require as Record<string, unknown>, 'require');
  const reject =
    filter.reject === undefined ? null : githubRequirementCheck(filter.reject as Record<string, unknown>, 'reject');
  // The deprecated `require-status` is `require: {status: ...}`, ignored when `require` is given (docs/github.md#trigger-filters).
  const requireStatus =
    filter.require === undefined && filter['require-status'] !== undefined
      ? githubRequirementCheck({ status: filter['require-status'] }, 'require')
      : null;
  const anyMatch = (patterns: RegExp[], value: string | undefined | null) =>
    patterns.length === 0 || (value !== undefined && value !== null && patterns.some((p) => fullMatch(p, value)));
  return (event, judged) => {
    const change = judged?.change;
    if (!events.includes(event.type)) {
      return false;
    }
    if (actions.length > 0 && (event.action === undefined || !actions.includes(event.action))) {
      return false;
    }
    const branch = change?.branch ?? event.branch;
    if (branches.length > 0 && branch !== undefined && !anyMatch(branches, branch)) {
      return false;
    }
    const ref = change?.ref ?? event.ref;
    if (refs.length > 0 && event.type === 'push' && !anyMatch(refs, ref)) {
      return false;
    }
    if (comments.length > 0 && !comments.some((p) => p.test(event.comment ?? ''))) {
      return false;
    }
    if (labels.length > 0 && (event.action !== 'labeled' || !labels.includes(event.label ?? ''))) {
      return false;
    }
    if (unlabels.length > 0 && (event.action !== 'unlabeled' || !unlabels.includes(event.label ?? ''))) {
      return false;
    }
    if (states.length > 0 && !states.includes(event.state ?? '')) {
      return false;
    }
    if (!anyMatch(statuses, event.status) || !anyMatch(checks, event.check)) {
      return false;
    }
    if (judged === undefined) {
      return true;
    }
    const { now } = judged;
    if ((require?.(judged.change, now) ?? null) !== null || (requireStatus?.(judged.change, now) ?? null) !== null) {
      return false;
    }
    return (reject?.(judged.change, now) ?? null) === null;
  };
}
