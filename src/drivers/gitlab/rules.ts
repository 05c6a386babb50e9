/**
 * The GitLab driver's trigger filters, requirements and reporter options with the reference's
 * attribute names (docs/gitlab.md#trigger-filters, docs/gitlab.md#requirements,
 * docs/gitlab.md#reporters).
 */
import type { ChangeInfo } from '../../model/changes';
import type { OptionMap, OptionReaders, ReporterRules, RequirementRules, TriggerRules } from '../driver';
import { checkFilterPatterns, compilePattern, filterMatchers } from '../filter-patterns';

const EVENTS = ['gl_merge_request', 'gl_push'];
const ACTIONS = ['opened', 'changed', 'closed', 'merged', 'comment', 'approved', 'unapproved', 'labeled', 'unlabeled'];
const TRIGGER_KEYS = ['event', 'action', 'branch', 'ref', 'comment', 'labels', 'unlabels', 'debug'];
const REQUIREMENT_KEYS = ['open', 'merged', 'approved', 'labels'];
const REPORTER_KEYS = ['comment', 'approval', 'merge', 'label', 'unlabel'];

function strs(value: unknown): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.map(String);
}

function anchored(text: string): RegExp {
  return compilePattern(text, 'full');
}

/** Comment regexes are searched for in the note; `(?i)` as in the reference's examples. */
function searched(text: string): RegExp {
  return compilePattern(text, 'search');
}

function validateTrigger(filter: OptionMap, read: OptionReaders, attribute: string): void {
  read.keys(filter, TRIGGER_KEYS, ['event'], `data['${attribute}']`);
  for (const event of read.strings(filter.event, 'event')) {
    if (!EVENTS.includes(event)) {
      read.fail(`Unknown gitlab event "${event}" (expected one of ${EVENTS.join(', ')})`);
    }
  }
  for (const action of read.optStrings(filter, 'action') ?? []) {
    if (!ACTIONS.includes(action)) {
      read.fail(`Unknown gitlab action "${action}" (expected one of ${ACTIONS.join(', ')})`);
    }
  }
  for (const key of ['branch', 'ref']) {
    checkFilterPatterns(filter[key], read, anchored, key);
  }
  checkFilterPatterns(filter.comment, read, searched, 'comment');
  read.optStrings(filter, 'labels');
  read.optStrings(filter, 'unlabels');
  read.bool(filter, 'debug');
}

export const gitlabTriggers: TriggerRules = {
  validate: validateTrigger,
  compile(filter, connection) {
    const events = strs(filter.event);
    const actions = strs(filter.action);
    const branches = filterMatchers(filter.branch, anchored);
    const refs = filterMatchers(filter.ref, anchored);
    const comments = filterMatchers(filter.comment, searched);
    const labels = strs(filter.labels);
    const unlabels = strs(filter.unlabels);
    return {
      driver: 'gitlab',
      connection,
      events,
      matches: ({ event, ref, branch }) => {
        if (!events.includes(event.type)) {
          return false;
        }
        if (actions.length > 0 && !actions.includes(event.action ?? '')) {
          return false;
        }
        if (branches.length > 0 && !branches.some((re) => branch != null && re.test(branch))) {
          return false;
        }
        if (refs.length > 0 && !refs.some((re) => ref !== undefined && re.test(ref))) {
          return false;
        }
        if (comments.length > 0 && !comments.some((re) => re.test(event.comment ?? ''))) {
          return false;
        }
        if (labels.length > 0 && !(event.action === 'labeled' && labels.includes(event.label ?? ''))) {
          return false;
        }
        return unlabels.length === 0 || (event.action === 'unlabeled' && unlabels.includes(event.label ?? ''));
      },
    };
  },
};

/** Why a merge request fails a `require` entry (or matches a `reject` one), or null. */
export function gitlabRequirementCheck(
  options: OptionMap,
  mode: 'require' | 'reject',
): (change: ChangeInfo) => string | null {
  const labels = strs(options.labels);
  return (change) => {
    const review = change.review;
    const facts: Array<[string, boolean, unknown]> = [];
    if (typeof options.open === 'boolean') {
      facts.push(['open', review?.state === 'open', options.open]);
    }
    if (typeof options.merged === 'boolean') {
      facts.push(['merged', change.merged, options.merged]);
    }
    if (typeof options.approved === 'boolean') {
      facts.push(['approved', (review?.reviews.length ?? 0) > 0, options.approved]);
    }
    for (const [name, actual, wanted] of facts) {
      if (mode === 'require' ? actual !== wanted : actual === wanted) {
        return `${name} is ${String(actual)} (${mode} ${name}: ${String(wanted)})`;
      }
    }
    const has = review?.labels ?? [];
    if (labels.length > 0) {
      if (mode === 'require') {
        const missing = labels.filter((label) => !has.includes(label));
        if (missing.length > 0) {
          return `labels ${missing.join(', ')} missing (require labels)`;
        }
      } else {
        const present = labels.filter((label) => has.includes(label));
        if (present.length > 0) {
          return `labels ${present.join(', ')} present (reject labels)`;
        }
      }
    }
    return null;
  };
}

export const gitlabRequirements: RequirementRules = {
  validate(options, read, attribute) {
    read.keys(options, REQUIREMENT_KEYS, [], `data['${attribute}']`);
    for (const key of ['open', 'merged', 'approved']) {
      read.bool(options, key);
    }
    read.optStrings(options, 'labels');
  },
  compile: (options, mode) => {
    const check = gitlabRequirementCheck(options, mode);
    return { driverCheck: (change) => check(change) };
  },
};

export const gitlabReporters: ReporterRules = {
  validate(options, read, attribute) {
    read.keys(options, REPORTER_KEYS, [], `data['${attribute}']`);
    for (const key of ['comment', 'approval', 'merge']) {
      read.bool(options, key);
    }
    read.optStrings(options, 'label');
    read.optStrings(options, 'unlabel');
  },
  compile: (options) => ({ submit: options.merge === true, external: true }),
};
