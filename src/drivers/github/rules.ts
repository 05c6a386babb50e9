/**
 * The GitHub driver's trigger filters, reporter and pipeline requirements, with the reference's
 * attribute names (docs/github.md#trigger-filters, docs/github.md#reporters,
 * docs/github.md#requirements): validation of the configuration and the compiled predicates the
 * engine calls through its layout port.
 */
import type { ChangeInfo } from '../../model/changes';
import type { TriggerEvent } from '../../model/engine-events';
import type { OptionMap, OptionReaders, ReporterRules, RequirementRules, TriggerRules } from '../driver';
import { givenWithin as submittedWithin, timeToSeconds } from '../review-age';
import { checkFilterPatterns, compilePattern, filterMatchers, type FilterMatcher } from '../filter-patterns';
import { githubTriggerWarnings } from './trigger-warnings';

const GITHUB_EVENTS = ['pull_request', 'pull_request_review', 'push', 'check_run'];
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
const GITHUB_REPORTER_KEYS = [
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
function regexes(value: unknown, read: OptionReaders): void {
  for (const text of strs(value)) {
    try {
      pattern(text);
    } catch (err) {
      read.fail(`Invalid regular expression "${text}": ${(err as Error).message}`);
    }
  }
}

/** A filter's regex (src/drivers/filter-patterns.ts): whole-value, or searched for when not `anchored`. */
function pattern(text: string, anchored = true): RegExp {
  return compilePattern(text, anchored ? 'full' : 'search');
}

/** Full-string regex match, as the reference's filters use (the pattern is anchored). */
function fullMatch(anchored: FilterMatcher, value: string): boolean {
  return anchored.test(value);
}

/** Validate one GitHub trigger filter. */
function validateTrigger(filter: OptionMap, read: OptionReaders, attribute: string): void {
  read.keys(filter, GITHUB_TRIGGER_KEYS, ['event'], `data['${attribute}']`);
  for (const event of strs(filter.event)) {
    if (!GITHUB_EVENTS.includes(event)) {
      read.fail(`Unknown github event "${event}" (expected one of ${GITHUB_EVENTS.join(', ')})`);
    }
  }
  for (const key of ['status', 'check', 'require-status']) {
    regexes(filter[key], read);
  }
  for (const key of ['branch', 'ref', 'comment']) {
    checkFilterPatterns(filter[key], read, (text) => pattern(text), key);
  }
  // Deprecated forms still load and act as written (docs/github.md#trigger-filters).
  githubTriggerWarnings(filter).forEach(({ name, message }) => read.warn(name, message));
  for (const key of ['require', 'reject']) {
    if (filter[key] !== undefined) {
      validateRequirement(filter[key] as OptionMap, read, attribute);
    }
  }
}

/** Validate a GitHub pipeline `require`/`reject` entry. */
function validateRequirement(options: OptionMap, read: OptionReaders, attribute: string): void {
  read.keys(options, REQUIREMENT_KEYS, [], `data['${attribute}']`);
  for (const key of ['open', 'merged', 'current-patchset', 'draft']) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      read.fail(`${key} must be a boolean`);
    }
  }
  for (const review of list(options.review)) {
    if (review === null || typeof review !== 'object') {
      read.fail('review entries must be dictionaries');
    }
    read.keys(
      review as OptionMap,
      ['username', 'type', 'permission', 'email', 'newer-than', 'older-than'],
      [],
      `data['${attribute}']`,
    );
    for (const key of ['newer-than', 'older-than']) {
      const value = (review as OptionMap)[key];
      if (value !== undefined && timeToSeconds(value) === undefined) {
        read.fail(`Unable to parse time value: ${String(value)}`);
      }
    }
  }
  regexes(options.status, read);
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

/** What a compiled GitHub trigger filter judges: the event, and its change once read, at `now` (the pass's clock). */
export function compileGitHubTrigger(
  filter: Record<string, unknown>,
): (event: TriggerEvent, change: ChangeInfo | undefined, now: Date) => boolean {
  const events = strs(filter.event);
  // The deprecated `requested` check-run action means `rerequested`.
  const actions = strs(filter.action).map((action) => (action === 'requested' ? 'rerequested' : action));
  const branches = filterMatchers(filter.branch, (text) => pattern(text));
  const refs = filterMatchers(filter.ref, (text) => pattern(text));
  // Comment regexes are searched for in the comment, as the reference does.
  const comments = filterMatchers(filter.comment, (text) => pattern(text, false));
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
  const anyMatch = (patterns: FilterMatcher[], value: string | undefined | null) =>
    patterns.length === 0 || (value !== undefined && value !== null && patterns.some((p) => fullMatch(p, value)));
  return (event, change, now) => {
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
    if (
      change !== undefined &&
      ((require?.(change, now) ?? null) !== null || (requireStatus?.(change, now) ?? null) !== null)
    ) {
      return false;
    }
    return change === undefined || (reject?.(change, now) ?? null) === null;
  };
}

export const githubTriggers: TriggerRules = {
  validate: validateTrigger,
  compile(filter, connection) {
    const matches = compileGitHubTrigger(filter);
    return {
      driver: 'github',
      connection,
      events: strs(filter.event),
      matches: ({ event, connection: of, change, now }) =>
        of === connection && matches(event as TriggerEvent, change, now),
    };
  },
};

/** Reports go to the reporter port; `merge: true` makes the engine merge on success (docs/github.md#reporters). */
export const githubReporters: ReporterRules = {
  validate: (options, read, attribute) => {
    read.keys(options, GITHUB_REPORTER_KEYS, [], `data['${attribute}']`);
    if (options['status-url'] !== undefined) {
      read.warn('Github status-url Deprecation', 'The "status-url" reporter attribute is deprecated.');
    }
  },
  compile: (options) => ({ submit: options.merge === true, external: true }),
};

export const githubRequirements: RequirementRules = {
  validate: validateRequirement,
  compile: (options, mode) => ({ driverCheck: githubRequirementCheck(options, mode) }),
};
