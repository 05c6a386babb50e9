/**
 * The Gerrit driver's trigger filters and reporters with the reference's names
 * (docs/gerrit.md#trigger-filters, docs/gerrit.md#reporters): validation of the configuration and
 * the compiled predicates the engine calls through its layout port. Requirements are in
 * src/drivers/gerrit/requirements.ts.
 */
import type { ChangeInfo } from '../../model/changes';
import { ZERO_REVISION } from '../../model/changes';
import type { TriggerEvent } from '../../model/engine-events';
import type { OptionMap, OptionReaders, ReporterRules, RequirementRules, TriggerRules } from '../driver';
import { checkFilterPatterns, filterMatchers, type FilterMatcher } from '../filter-patterns';
import {
  approvalMet,
  approvalSpec,
  gerritRequirementCheck,
  list,
  prefixPattern,
  searchPattern,
  strs,
  validateApproval,
  validateRequirement,
} from './requirements';

export const GERRIT_EVENTS = [
  'patchset-created',
  'draft-published',
  'comment-added',
  'change-abandoned',
  'change-restored',
  'change-merged',
  'ref-updated',
  'pending-check',
  'wip-state-changed',
  'hashtags-changed',
  'vote-deleted',
];
const TRIGGER_KEYS = [
  'event',
  'branch',
  'ref',
  'ignore-deletes',
  'comment',
  'comment_filter',
  'email',
  'email_filter',
  'username',
  'username_filter',
  'approval',
  'approval-change',
  'require-approval',
  'reject-approval',
  'require',
  'reject',
  'added',
  'removed',
  'uuid',
  'scheme',
  'debug',
];
/** Reporter keys that are no label vote. */
const REPORTER_FLAGS = ['submit', 'comment'];
const NOTIFY = ['NONE', 'OWNER', 'OWNER_REVIEWERS', 'ALL'];

function validateTrigger(filter: OptionMap, read: OptionReaders, attribute: string): void {
  read.keys(filter, TRIGGER_KEYS, ['event'], `data['${attribute}']`);
  for (const event of read.strings(filter.event, attribute)) {
    if (!GERRIT_EVENTS.includes(event)) {
      read.fail(`Unknown gerrit event "${event}" (expected one of ${GERRIT_EVENTS.join(', ')})`);
    }
  }
  for (const key of [
    'branch',
    'ref',
    'comment',
    'comment_filter',
    'email',
    'email_filter',
    'username',
    'username_filter',
    'added',
    'removed',
  ]) {
    checkFilterPatterns(filter[key], read, prefixPattern, key);
  }
  for (const key of ['comment_filter', 'email_filter', 'username_filter']) {
    if (filter[key] !== undefined) {
      const name = key.replace('_filter', '');
      read.warn('Gerrit Filter Deprecation', `The "${key}" trigger attribute is deprecated; use "${name}".`);
    }
  }
  read.bool(filter, 'ignore-deletes');
  read.bool(filter, 'debug');
  for (const key of ['approval', 'approval-change']) {
    // `approval: {Workflow: 1}`: votes the event itself must carry; `approval-change`: votes it changed to.
    list(filter[key]).forEach((entry) => validateApproval(entry, read, key));
  }
  for (const [key, replacement] of [
    ['require-approval', 'require'],
    ['reject-approval', 'reject'],
  ]) {
    list(filter[key]).forEach((entry) => validateApproval(entry, read, key));
    if (filter[key] !== undefined) {
      // The reference's deprecation warnings; the filter still acts as written.
      read.warn(
        `Gerrit ${key} Deprecation`,
        `The "${key}" trigger attribute is deprecated; use "${replacement}" instead.`,
      );
    }
  }
  for (const key of ['require', 'reject']) {
    if (filter[key] !== undefined) {
      validateRequirement(filter[key] as OptionMap, read, attribute);
    }
  }
}

/** The fields of an event a Gerrit filter reads (its type any string). */
type GerritEventFields = Omit<Partial<TriggerEvent>, 'type'> & { type: string };

/** The votes a comment-added event carries that count: the changed ones where Gerrit says which changed. */
function eventVotes(event: GerritEventFields): Array<{ type: string; value: number }> {
  const approvals = event.approvals ?? [];
  const changed = approvals.filter((a) => a.oldValue !== undefined);
  return approvals.some((a) => a.oldValue !== undefined) ? changed : approvals;
}

/** The label votes an `approval` / `approval-change` attribute names (`{Workflow: 1}`, a list of them). */
function votesOf(value: unknown): Array<{ type: string; values: number[] }> {
  return list(value).flatMap((entry) =>
    Object.entries(entry as OptionMap).map(([type, votes]) => ({ type, values: list(votes).map(Number) })),
  );
}

/** What a compiled Gerrit trigger filter judges: the event, and its change once read, at `now`. */
export function compileGerritTrigger(
  filter: OptionMap,
): (event: GerritEventFields, change: ChangeInfo | undefined, now: Date) => boolean {
  const events = strs(filter.event);
  const branches = filterMatchers(filter.branch, prefixPattern);
  const refs = filterMatchers(filter.ref, prefixPattern);
  const comments = filterMatchers(filter.comment ?? filter.comment_filter, searchPattern);
  // Who caused the event and the hashtags it added or removed are searched, as the reference does.
  const emails = filterMatchers(filter.email ?? filter.email_filter, searchPattern);
  const usernames = filterMatchers(filter.username ?? filter.username_filter, searchPattern);
  const ignoreDeletes = filter['ignore-deletes'] !== false;
  const wanted = votesOf(filter.approval);
  const requireApprovals = list(filter['require-approval']).map((e) => approvalSpec(e as OptionMap));
  const rejectApprovals = list(filter['reject-approval']).map((e) => approvalSpec(e as OptionMap));
  const require = filter.require === undefined ? null : gerritRequirementCheck(filter.require as OptionMap, 'require');
  const reject = filter.reject === undefined ? null : gerritRequirementCheck(filter.reject as OptionMap, 'reject');
  const added = filterMatchers(filter.added, searchPattern);
  const removed = filterMatchers(filter.removed, searchPattern);
  const changedTo = votesOf(filter['approval-change']);
  const uuids = strs(filter.uuid);
  const schemes = strs(filter.scheme);
  const anyMatch = (patterns: FilterMatcher[], value: string | undefined | null) =>
    patterns.length === 0 || (value !== undefined && value !== null && patterns.some((p) => p.test(value)));
  const someMatch = (patterns: FilterMatcher[], values: readonly string[] | undefined) =>
    patterns.length === 0 || (values ?? []).some((value) => patterns.some((p) => p.test(value)));
  return (event, change, now) => {
    if (!events.includes(event.type)) {
      return false;
    }
    const branch = change?.branch ?? event.branch;
    if (branches.length > 0 && branch !== undefined && !anyMatch(branches, branch)) {
      return false;
    }
    if (event.type === 'ref-updated') {
      if (refs.length > 0 && !anyMatch(refs, change?.ref ?? event.ref)) {
        return false;
      }
      if (ignoreDeletes && (change?.newrev ?? event.newrev) === ZERO_REVISION) {
        return false;
      }
    }
    if (comments.length > 0 && !comments.some((p) => p.test(event.comment ?? ''))) {
      return false;
    }
    if (!anyMatch(emails, event.email) || !anyMatch(usernames, event.account)) {
      return false;
    }
    const votes = eventVotes(event);
    if (!wanted.every(({ type, values }) => votes.some((v) => v.type === type && values.includes(v.value)))) {
      return false;
    }
    const changed = (v: { type: string; value: number; oldValue?: number }, type: string, values: number[]) =>
      v.type === type && values.includes(v.value) && v.oldValue !== undefined && v.oldValue !== v.value;
    if (!changedTo.every(({ type, values }) => (event.approvals ?? []).some((v) => changed(v, type, values)))) {
      return false;
    }
    if (!someMatch(added, event.added) || !someMatch(removed, event.removed)) {
      return false;
    }
    if (
      (uuids.length > 0 && !uuids.includes(event.uuid ?? '')) ||
      (schemes.length > 0 && !schemes.includes(event.scheme ?? ''))
    ) {
      return false;
    }
    if (change === undefined) {
      return true;
    }
    const approvals = change.gerrit?.approvals ?? [];
    if (!requireApprovals.every((spec) => approvalMet(spec, approvals, now))) {
      return false;
    }
    if (rejectApprovals.some((spec) => approvalMet(spec, approvals, now))) {
      return false;
    }
    return (require?.(change, now) ?? null) === null && (reject?.(change, now) ?? null) === null;
  };
}

export const gerritTriggers: TriggerRules = {
  validate: validateTrigger,
  compile(filter, connection) {
    const matches = compileGerritTrigger(filter);
    return {
      driver: 'gerrit',
      connection,
      events: strs(filter.event),
      matches: ({ event, connection: of, change, now }) => of === connection && matches(event, change, now),
    };
  },
};

/** The label votes of a reporter (`Verified: 1`, `Code-Review: -2`), by label. */
export function reporterVotes(options: OptionMap): Record<string, number> {
  const votes: Record<string, number> = {};
  for (const [key, value] of Object.entries(options)) {
    if (!REPORTER_FLAGS.includes(key) && key !== 'notify') {
      votes[key] = Number(value);
    }
  }
  return votes;
}

/**
 * `submit: true` makes the engine merge on success through Gerrit's submit; votes, the message
 * (`comment: false` leaves it out) and `notify` go to the reporter port (docs/gerrit.md#reporters).
 */
export const gerritReporters: ReporterRules = {
  validate(options, read) {
    for (const flag of REPORTER_FLAGS) {
      read.bool(options, flag);
    }
    if (options.notify !== undefined && !NOTIFY.includes(String(options.notify))) {
      read.fail(`Unknown gerrit notify "${String(options.notify)}" (expected one of ${NOTIFY.join(', ')})`);
    }
    for (const [label, value] of Object.entries(options)) {
      if (REPORTER_FLAGS.includes(label) || label === 'notify') {
        continue;
      }
      if (!Number.isInteger(typeof value === 'string' && /^[+-]?\d+$/.test(value) ? Number(value) : value)) {
        read.fail(`The gerrit reporter's "${label}" must be a vote (an integer), not ${JSON.stringify(value)}`);
      }
    }
  },
  compile: (options) => ({
    submit: options.submit === true,
    external: true,
    allowNeeds: Object.keys(reporterVotes(options)),
  }),
};

export const gerritRequirements: RequirementRules = {
  validate: validateRequirement,
  compile: (options, mode) => ({ driverCheck: gerritRequirementCheck(options, mode) }),
};
