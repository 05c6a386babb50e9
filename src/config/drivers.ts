/**
 * Trigger, reporter and requirement options per driver
 * (docs/project-configuration.md#triggers-reporters-and-requirements, docs/gating.md#sluices-own-rules). The `git`,
 * `timer`, `zuul` and `github` (docs/github.md#trigger-filters) drivers are validated in full; options of the other
 * code-review drivers (gerrit, gitlab) are parsed structurally only, since Sluice has no such connections yet.
 */
import { ConfigObjectError, ErrorName } from './config-error';
import { compileRegex, readRegexList, warnDeprecatedRegexes } from './regex';
import { checkKeys, optBool, optStrList, requireMap, strList, toPlainData, type ConfigMap } from './schema-helpers';
import { isYamlMapping } from './yaml-source';
import { GITHUB_REPORTER_KEYS, validateGitHubRequirement, validateGitHubTrigger } from '../drivers/github/rules';

/** Connection-less drivers that may be named directly as trigger/reporter keys. */
const IMPLICIT_DRIVERS = new Set(['timer', 'zuul']);
const GIT_EVENTS = ['ref-updated', 'patchset-created'];
/** Statuses a git change can have (Gerrit's names; the git driver has no abandoned changes). */
const GIT_CHANGE_STATUSES = ['NEW', 'MERGED'];
const ZUUL_EVENTS = ['parent-change-enqueued', 'project-change-merged', 'image-build', 'image-validate'];

/** Resolve a trigger/reporter key to its driver, or throw "Unknown Connection". */
export function driverFor(key: string, connections: Readonly<Record<string, string>>, attribute: string): string {
  const driver = connections[key] ?? (IMPLICIT_DRIVERS.has(key) ? key : undefined);
  if (driver === undefined) {
    throw new ConfigObjectError(`Unknown connection named "${key}".`, ErrorName.unknownConnection, attribute);
  }
  return driver;
}

function filters(value: unknown, attribute: string): ConfigMap[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (!isYamlMapping(entry)) {
      throw new ConfigObjectError(
        `expected a dictionary for dictionary value @ data['${attribute}']`,
        ErrorName.syntax,
        attribute,
      );
    }
    return entry;
  });
}

/**
 * Regex attributes of code-review drivers Sluice keeps as written (gerrit, gitlab, pagure): their
 * RE2-less patterns still get the reference's deprecation warning.
 */
const REVIEW_REGEX_ATTRIBUTES = [
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
];
/** Deprecated Gerrit trigger attributes: [attribute, warning name, message]. */
const GERRIT_DEPRECATED: ReadonlyArray<[string, string, string]> = [
  [
    'require-approval',
    'Gerrit require-approval Deprecation',
    'The "require-approval" trigger attribute is deprecated; use "require" instead.',
  ],
  [
    'reject-approval',
    'Gerrit reject-approval Deprecation',
    'The "reject-approval" trigger attribute is deprecated; use "reject" instead.',
  ],
];

/** Regex values of a trigger attribute (strings or `{regex, negate}`), for deprecation checks. */
function regexValues(value: unknown): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((entry): string[] =>
    typeof entry === 'string' ? [entry] : isYamlMapping(entry) && typeof entry.regex === 'string' ? [entry.regex] : [],
  );
}

/**
 * Validate the trigger filters of one connection; returns them as plain data. Deprecated forms
 * add warnings to `warnings` (docs/project-configuration.md#triggers-reporters-and-requirements).
 */
export function validateTrigger(
  driver: string,
  value: unknown,
  attribute: string,
  warnings: ConfigObjectError[],
): Array<Record<string, unknown>> {
  const list = filters(value, attribute);
  for (const f of list) {
    switch (driver) {
      case 'git': {
        checkKeys(f, new Set(['event', 'ref', 'ignore-deletes', 'debug']), ['event'], `data['${attribute}']`);
        for (const event of strList(f.event, attribute)) {
          if (!GIT_EVENTS.includes(event)) {
            throw new ConfigObjectError(
              `Unknown git event "${event}" (expected one of ${GIT_EVENTS.join(', ')})`,
              ErrorName.syntax,
              attribute,
            );
          }
        }
        if (f.ref !== undefined) {
          const refs = readRegexList(f.ref, attribute);
          refs.forEach((r) => compileRegex(r, attribute));
          warnDeprecatedRegexes(refs, attribute, warnings);
        }
        optBool(f, 'ignore-deletes');
        optBool(f, 'debug');
        break;
      }
      case 'timer': {
        checkKeys(f, new Set(['time', 'dereference', 'debug']), ['time'], `data['${attribute}']`);
        const time = f.time;
        if (typeof time !== 'string' || !validCron(time)) {
          throw new ConfigObjectError(`Invalid timer specification "${String(time)}"`, ErrorName.syntax, attribute);
        }
        optBool(f, 'dereference');
        optBool(f, 'debug');
        break;
      }
      case 'zuul': {
        checkKeys(f, new Set(['event', 'pipeline', 'debug']), ['event'], `data['${attribute}']`);
        for (const event of strList(f.event, attribute)) {
          if (!ZUUL_EVENTS.includes(event)) {
            throw new ConfigObjectError(`Unknown zuul event "${event}"`, ErrorName.syntax, attribute);
          }
        }
        if (f.pipeline !== undefined) {
          const pipelines = readRegexList(f.pipeline, attribute);
          pipelines.forEach((r) => compileRegex(r, attribute));
          warnDeprecatedRegexes(pipelines, attribute, warnings);
        }
        optBool(f, 'debug');
        break;
      }
      case 'github':
        validateGitHubTrigger(f, attribute, warnings);
        break;
      default:
        // Code-review drivers: keep the options; they are validated once such connections exist.
        if (f.event === undefined) {
          throw new ConfigObjectError(
            `required key not provided @ data['${attribute}']['event']`,
            ErrorName.syntax,
            attribute,
          );
        }
        for (const key of REVIEW_REGEX_ATTRIBUTES) {
          warnDeprecatedRegexes(regexValues(f[key]), attribute, warnings);
        }
        if (driver === 'gerrit') {
          for (const [key, name, message] of GERRIT_DEPRECATED) {
            if (f[key] !== undefined) {
              warnings.push(new ConfigObjectError(message, name, attribute, 'warning'));
            }
          }
        }
    }
  }
  return list.map((f) => toPlainData(f) as Record<string, unknown>);
}

/** Validate a reporter's options for one connection; deprecated options add warnings to `warnings`. */
export function validateReporter(
  driver: string,
  value: unknown,
  attribute: string,
  warnings: ConfigObjectError[],
): Record<string, unknown> {
  const options = value === null || value === undefined ? {} : requireMap(value, attribute);
  switch (driver) {
    case 'git':
      checkKeys(options, new Set(['submit', 'comment']), [], `data['${attribute}']`);
      optBool(options, 'submit');
      optBool(options, 'comment');
      break;
    case 'zuul':
      checkKeys(options, new Set(['image-built', 'image-validated']), [], `data['${attribute}']`);
      optBool(options, 'image-built');
      optBool(options, 'image-validated');
      break;
    case 'github':
      checkKeys(options, new Set(GITHUB_REPORTER_KEYS), [], `data['${attribute}']`);
      if (options['status-url'] !== undefined) {
        warnings.push(
          new ConfigObjectError(
            'The "status-url" reporter attribute is deprecated.',
            'Github status-url Deprecation',
            attribute,
            'warning',
          ),
        );
      }
      break;
    case 'timer':
      throw new ConfigObjectError('The timer driver has no reporter', ErrorName.syntax, attribute);
    default:
      break;
  }
  return toPlainData(options) as Record<string, unknown>;
}

/** Validate pipeline `require`/`reject` options for one connection. */
export function validateRequirement(driver: string, value: unknown, attribute: string): Record<string, unknown> {
  const options = value === null || value === undefined ? {} : requireMap(value, attribute);
  switch (driver) {
    case 'git': {
      checkKeys(options, new Set(['open', 'current-patchset', 'status']), [], `data['${attribute}']`);
      optBool(options, 'open');
      optBool(options, 'current-patchset');
      for (const status of optStrList(options, 'status') ?? []) {
        if (!GIT_CHANGE_STATUSES.includes(status)) {
          throw new ConfigObjectError(
            `Unknown git change status "${status}" (expected one of ${GIT_CHANGE_STATUSES.join(', ')})`,
            ErrorName.syntax,
            attribute,
          );
        }
      }
      break;
    }
    case 'github':
      validateGitHubRequirement(options, attribute);
      break;
    case 'timer':
    case 'zuul':
      throw new ConfigObjectError(`The ${driver} driver has no pipeline requirements`, ErrorName.syntax, attribute);
    default:
      optStrList(options, 'status');
      break;
  }
  return toPlainData(options) as Record<string, unknown>;
}

const CRON_FIELD = /^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?(,(\*|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?)*$/;

/** 5 cron fields, an optional 6th (seconds) and an optional 7th (jitter seconds). */
function validCron(spec: string): boolean {
  const fields = spec.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 7) {
    return false;
  }
  return fields.every((f) => CRON_FIELD.test(f));
}
