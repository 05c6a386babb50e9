/**
 * Warnings about GitHub trigger filters the reference still accepts but has deprecated
 * (docs/github.md#trigger-filters): `require-status`, `unlabel`, an `event` list, the `requested`
 * check-run action, and attributes that do not fit the filter's event and action. The filter
 * still loads and acts as written; these only add warnings to the tenant's config errors.
 */
import type { OptionMap } from '../driver';

const DEPRECATED_ATTRIBUTES: ReadonlyArray<[string, string, string]> = [
  [
    'require-status',
    'Github require-status Deprecation',
    'The "require-status" trigger attribute is deprecated; use "require" instead.',
  ],
  ['unlabel', 'Github unlabel Deprecation', 'The "unlabel" trigger attribute is deprecated; use "label" instead.'],
];

/** What each event (and, for pull requests, action) takes besides `event`, `require`, `reject` and `debug`. */
interface Shape {
  keys: string[];
  /** Allowed `action` values, when restricted. */
  actions?: string[];
  /** Allowed `state` values, when restricted. */
  states?: string[];
}

function pullRequestShape(action: unknown): Shape {
  switch (action) {
    case 'comment':
      return { keys: ['branch', 'action', 'comment'], actions: ['comment'] };
    case 'labeled':
    case 'unlabeled':
      return { keys: ['branch', 'action', 'label'], actions: ['labeled', 'unlabeled'] };
    case 'status':
      return { keys: ['branch', 'action', 'status'], actions: ['status'] };
    default:
      return { keys: ['branch', 'action'], actions: ['opened', 'changed', 'closed', 'reopened'] };
  }
}

function shapeOf(event: string, filter: OptionMap): Shape | undefined {
  switch (event) {
    case 'pull_request':
      // Only a single action selects a special shape (a list is checked as the default one).
      return pullRequestShape(filter.action);
    case 'pull_request_review':
      return {
        keys: ['branch', 'action', 'state'],
        actions: ['submitted', 'dismissed'],
        states: ['approved', 'commented', 'changes_requested', 'dismissed', 'pending'],
      };
    case 'push':
      return { keys: ['ref'] };
    case 'check_run':
      return { keys: ['action', 'check'], actions: ['rerequested', 'completed', 'requested'] };
    default:
      return undefined;
  }
}

function values(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

/** Why the filter does not fit its event's shape, or undefined when it does (or its event is a list). */
function shapeProblem(filter: OptionMap): string | undefined {
  if (typeof filter.event !== 'string') {
    return undefined;
  }
  const shape = shapeOf(filter.event, filter);
  if (shape === undefined) {
    return undefined;
  }
  const allowed = new Set(['event', 'require', 'reject', 'debug', ...shape.keys]);
  const extra = Object.keys(filter).find((key) => !allowed.has(key));
  if (extra !== undefined) {
    return `extra keys not allowed @ data['${extra}']`;
  }
  for (const [key, permitted] of [
    ['action', shape.actions],
    ['state', shape.states],
  ] as const) {
    const bad = permitted === undefined ? undefined : values(filter[key]).find((v) => !permitted.includes(String(v)));
    if (bad !== undefined) {
      return `not a valid value for dictionary value @ data['${key}'] (got "${String(bad)}")`;
    }
  }
  return undefined;
}

/** The deprecation warnings of one GitHub trigger filter: the reference's warning name and a message. */
export function githubTriggerWarnings(filter: OptionMap): Array<{ name: string; message: string }> {
  const warnings: Array<{ name: string; message: string }> = [];
  const warn = (name: string, message: string) => warnings.push({ name, message });
  for (const [key, name, message] of DEPRECATED_ATTRIBUTES) {
    if (filter[key] !== undefined) {
      warn(name, message);
    }
  }
  if (Array.isArray(filter.event)) {
    warn(
      'Github event list Deprecation',
      'Giving the "event" trigger attribute as a list is deprecated; use one event per filter.',
    );
  }
  if (filter.action === 'requested') {
    warn(
      'Github requested action Deprecation',
      'The "requested" value of the "action" trigger attribute is deprecated; use "rerequested" instead.',
    );
  }
  const problem = shapeProblem(filter);
  if (problem !== undefined) {
    warn('Github Trigger Configuration Warning', `The trigger configuration as supplied has an error: ${problem}`);
  }
  return warnings;
}
