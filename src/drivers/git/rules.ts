/**
 * The git driver's trigger filters, reporter and pipeline requirements
 * (docs/project-configuration.md#triggers-reporters-and-requirements, docs/gating.md#sluices-own-rules):
 * their validation and the engine's compiled form.
 */
import type { PipelineTrigger, RefFilter } from '../../engine/ports/layout';
import { ZERO_REVISION } from '../../model/changes';
import type { OptionMap, ReporterRules, RequirementRules, TriggerRules } from '../driver';
import { checkFilterPatterns, compilePattern, patternEntries } from '../filter-patterns';

const GIT_EVENTS = ['ref-updated', 'patchset-created'];
/** Statuses a git change can have (Gerrit's names; the git driver has no abandoned changes). */
const GIT_CHANGE_STATUSES = ['NEW', 'MERGED'];

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  return Array.isArray(value) ? value : [value];
}

function strings(value: unknown): string[] {
  return asList(value).filter((entry): entry is string => typeof entry === 'string');
}

/** `str`, `{regex, negate}` or a list of either, prefix-anchored as in the reference's `make_regex`. */
function refFilters(value: unknown): RefFilter[] {
  return patternEntries(value).map(({ pattern, negate }) => ({ pattern: compilePattern(pattern, 'start'), negate }));
}

/**
 * The reference's git event filter: the entries are ORed, each negated one matching the values
 * its regex does not. `undefined` = not known yet (the event's change is not resolved): any
 * filter may match.
 */
function filtersMatch(filters: readonly RefFilter[], value: string | null | undefined): boolean {
  if (filters.length === 0 || value === undefined) {
    return true;
  }
  if (value === null) {
    return false;
  }
  return filters.some((filter) => filter.pattern.test(value) !== filter.negate);
}

/**
 * A git trigger: events of the connection of its project, of the listed types, whose ref
 * (`ref-updated`) and branch pass the filters; with `ignoreDeletes` (the default, as in the
 * reference) a ref deleted (new revision all zeros) does not match.
 */
export function gitTrigger(
  connection: string,
  events: readonly string[],
  refs: readonly RefFilter[] = [],
  branches: readonly RefFilter[] = [],
  ignoreDeletes = true,
): PipelineTrigger {
  return {
    driver: 'git',
    connection,
    events,
    matches: ({ event, connection: of, ref, branch, change }) => {
      if (of !== connection || !events.includes(event.type)) {
        return false;
      }
      if (event.type === 'ref-updated') {
        if (ignoreDeletes && (change?.newrev ?? event.newrev) === ZERO_REVISION) {
          return false;
        }
        return filtersMatch(refs, ref) && filtersMatch(branches, branch);
      }
      return filtersMatch(branches, branch);
    },
  };
}

export const gitTriggers: TriggerRules = {
  validate(filter, read, attribute) {
    read.keys(filter, ['event', 'ref', 'ignore-deletes', 'debug'], ['event'], `data['${attribute}']`);
    for (const event of read.strings(filter.event, attribute)) {
      if (!GIT_EVENTS.includes(event)) {
        read.fail(`Unknown git event "${event}" (expected one of ${GIT_EVENTS.join(', ')})`);
      }
    }
    checkFilterPatterns(filter.ref, read, (pattern) => compilePattern(pattern, 'start'), 'ref');
    read.bool(filter, 'ignore-deletes');
    read.bool(filter, 'debug');
  },
  compile: (filter, connection) =>
    gitTrigger(connection, strings(filter.event), refFilters(filter.ref), [], filter['ignore-deletes'] !== false),
};

export const gitReporters: ReporterRules = {
  validate(options, read, attribute) {
    read.keys(options, ['submit', 'comment'], [], `data['${attribute}']`);
    read.bool(options, 'submit');
    read.bool(options, 'comment');
  },
  compile: (options) => ({ submit: options.submit === true }),
};

/** `open`, `current-patchset` and `status`: the engine's change requirements (docs/gating.md#requirements-require--reject). */
export const gitRequirements: RequirementRules = {
  validate(options, read, attribute) {
    read.keys(options, ['open', 'current-patchset', 'status'], [], `data['${attribute}']`);
    read.bool(options, 'open');
    read.bool(options, 'current-patchset');
    for (const status of read.optStrings(options, 'status') ?? []) {
      if (!GIT_CHANGE_STATUSES.includes(status)) {
        read.fail(`Unknown git change status "${status}" (expected one of ${GIT_CHANGE_STATUSES.join(', ')})`);
      }
    }
  },
  compile(options: OptionMap) {
    const requirement: { open?: boolean; currentPatchset?: boolean; status?: string[] } = {};
    if (typeof options.open === 'boolean') {
      requirement.open = options.open;
    }
    if (typeof options['current-patchset'] === 'boolean') {
      requirement.currentPatchset = options['current-patchset'];
    }
    const status = strings(options.status);
    if (status.length > 0) {
      requirement.status = status;
    }
    return requirement;
  },
};
