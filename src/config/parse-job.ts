/** `job` definitions (docs/project-configuration.md#jobs), top-level and as project-pipeline variants. */
import { ConfigObjectError, ErrorName } from './config-error';
import { unknownAnsibleVersion } from './ansible-versions';
import type { JobAttributeName, JobAttributes, JobVariant } from './layout';
import { impliedBranchMatcher, type ParseContext } from './parse-context';
import {
  boolOrAuto,
  CONTROLLABLE_ATTRIBUTES,
  checkedRegexes,
  checkTimeouts,
  checkVariableNames,
  readAttributeControl,
  readDependencies,
  readIncludeVars,
  readJobNodeset,
  readPlaybooks,
  readRequiredProjects,
  readRoles,
  readSecrets,
  readSemaphores,
  syntax,
} from './parse-job-attributes';
import { compileRegex, type BranchMatcher } from './regex';
import {
  checkKeys,
  optBool,
  optEnum,
  optInt,
  optString,
  requireMap,
  strList,
  toPlainData,
  type ConfigMap,
} from './schema-helpers';
import { isYamlMapping, OverrideControl } from './yaml-source';

const JOB_KEYS = new Set([
  'name',
  'parent',
  'description',
  'variant-description',
  'abstract',
  'intermediate',
  'final',
  'protected',
  'attribute-control',
  'success-message',
  'failure-message',
  'success-url',
  'failure-url',
  'hold-following-changes',
  'voting',
  'semaphore',
  'semaphores',
  'tags',
  'provides',
  'requires',
  'branches',
  'files',
  'irrelevant-files',
  'match-on-config-updates',
  'secrets',
  'nodeset',
  'pre-timeout',
  'timeout',
  'post-timeout',
  'attempts',
  'flaky-retries',
  'pre-run',
  'run',
  'post-run',
  'cleanup-run',
  'ansible-split-streams',
  'ansible-version',
  'roles',
  'required-projects',
  'vars',
  'extra-vars',
  'host-vars',
  'group-vars',
  'include-vars',
  'dependencies',
  'allowed-projects',
  'override-branch',
  'override-checkout',
  'post-review',
  'workspace-scheme',
  'workspace-checkout',
  'deduplicate',
  'failure-output',
  'image-build-name',
]);

/**
 * Parse a job definition. For project-pipeline variants pass `inlineName` (the list key); they
 * never get implied branch matchers.
 */
export function parseJob(body: unknown, ctx: ParseContext, inlineName?: string): JobVariant {
  const raw = body === null && inlineName !== undefined ? {} : requireMap(body, 'job');
  checkKeys(raw, JOB_KEYS, inlineName === undefined ? ['name'] : []);
  const name = inlineName ?? String(raw.name);
  if (typeof raw.name !== 'string' && inlineName === undefined) {
    throw syntax(`expected str for dictionary value @ data['name']`, 'name');
  }
  const overrideControl: Partial<Record<JobAttributeName, 'override' | 'inherit'>> = {};
  const map: ConfigMap = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value instanceof OverrideControl) {
      const attr = CONTROLLABLE_ATTRIBUTES[key];
      if (attr === undefined) {
        throw syntax(`The !${value.mode} tag is not supported on the "${key}" attribute`, key);
      }
      overrideControl[attr] = value.mode;
      map[key] = value.value;
    } else {
      map[key] = value;
    }
  }
  const a: JobAttributes = {};
  const trusted = ctx.sourceContext.trusted;
  if ('parent' in map) {
    if (map.parent === null) {
      if (!trusted) {
        throw new ConfigObjectError('Base jobs must be defined in config projects', ErrorName.unknown, 'parent');
      }
      a.parent = null;
    } else {
      a.parent = optString(map, 'parent');
    }
  }
  a.description = optString(map, 'description');
  a.variantDescription = optString(map, 'variant-description');
  a.abstract = optBool(map, 'abstract');
  a.intermediate = optBool(map, 'intermediate');
  a.final = optBool(map, 'final');
  a.protected = optBool(map, 'protected');
  if (a.intermediate === true && a.abstract !== true) {
    throw new ConfigObjectError('An intermediate job must also be abstract', ErrorName.unknown, 'intermediate');
  }
  if (map['attribute-control'] !== undefined) {
    a.attributeControl = readAttributeControl(map['attribute-control']);
  }
  a.successMessage = optString(map, 'success-message');
  a.failureMessage = optString(map, 'failure-message');
  a.successUrl = optString(map, 'success-url');
  a.failureUrl = optString(map, 'failure-url');
  a.holdFollowingChanges = optBool(map, 'hold-following-changes');
  a.voting = optBool(map, 'voting');
  if (map.semaphore !== undefined && map.semaphores !== undefined) {
    throw syntax('Only one of "semaphore" and "semaphores" may be used', 'semaphore');
  }
  if (map.semaphore !== undefined || map.semaphores !== undefined) {
    a.semaphores = readSemaphores(
      map.semaphores ?? map.semaphore,
      map.semaphores !== undefined ? 'semaphores' : 'semaphore',
    );
  }
  for (const [key, attr] of [
    ['tags', 'tags'],
    ['provides', 'provides'],
    ['requires', 'requires'],
  ] as const) {
    if (map[key] !== undefined && map[key] !== null) {
      a[attr] = [...new Set(strList(map[key], key))];
    }
  }
  let branchMatcher: BranchMatcher | undefined;
  if (map.branches !== undefined && map.branches !== null) {
    branchMatcher = { kind: 'explicit', regexes: checkedRegexes(map.branches, 'branches', ctx) };
  } else if (inlineName === undefined) {
    branchMatcher = impliedBranchMatcher(ctx);
  }
  if (map.files !== undefined && map.files !== null) {
    a.files = checkedRegexes(map.files, 'files', ctx);
  }
  if (map['irrelevant-files'] !== undefined && map['irrelevant-files'] !== null) {
    a.irrelevantFiles = checkedRegexes(map['irrelevant-files'], 'irrelevant-files', ctx);
  }
  a.matchOnConfigUpdates = optBool(map, 'match-on-config-updates');
  if (map.secrets !== undefined && map.secrets !== null) {
    a.secrets = readSecrets(map.secrets);
  }
  if (map.nodeset !== undefined && map.nodeset !== null) {
    a.nodeset = readJobNodeset(map.nodeset, ctx);
  }
  a.preTimeout = optInt(map, 'pre-timeout', 1);
  a.timeout = optInt(map, 'timeout', 1);
  a.postTimeout = optInt(map, 'post-timeout', 1);
  checkTimeouts(a, ctx);
  a.attempts = optInt(map, 'attempts', 1);
  a.flakyRetries = optInt(map, 'flaky-retries', 0);
  // Each script carries the roles of the definition that adds it, as the reference shows them
  // on job variants (docs/rest.md#job-variants); inheritance re-binds them per level (apply-variant).
  a.roles = readRoles(map.roles, ctx);
  const playbookContext = { sourceContext: ctx.sourceContext, secrets: a.secrets ?? [], roles: a.roles };
  if (map['pre-run'] !== undefined && map['pre-run'] !== null) {
    a.preRun = readPlaybooks(map['pre-run'], 'pre-run', false, playbookContext);
  }
  if (map.run !== undefined && map.run !== null) {
    a.run = readPlaybooks(map.run, 'run', false, playbookContext);
  }
  if (map['post-run'] !== undefined && map['post-run'] !== null) {
    a.postRun = readPlaybooks(map['post-run'], 'post-run', true, playbookContext);
  }
  if (map['cleanup-run'] !== undefined && map['cleanup-run'] !== null) {
    a.cleanupRun = readPlaybooks(map['cleanup-run'], 'cleanup-run', false, playbookContext).map((p) => ({
      ...p,
      cleanup: true,
    }));
    ctx.warnings.push(
      new ConfigObjectError(
        'The "cleanup-run" attribute is deprecated; use "post-run" with "cleanup: true" instead.',
        ErrorName.cleanupRunDeprecation,
        'cleanup-run',
        'warning',
      ),
    );
  }
  a.ansibleSplitStreams = optBool(map, 'ansible-split-streams');
  if (map['ansible-version'] !== undefined && map['ansible-version'] !== null) {
    if (typeof map['ansible-version'] !== 'string' && typeof map['ansible-version'] !== 'number') {
      throw syntax(`expected str for dictionary value @ data['ansible-version']`, 'ansible-version');
    }
    a.ansibleVersion = String(map['ansible-version']);
    const unknown = unknownAnsibleVersion(a.ansibleVersion);
    if (unknown !== undefined) {
      throw new ConfigObjectError(unknown, ErrorName.unknown, 'ansible-version');
    }
  }
  if (map['required-projects'] !== undefined && map['required-projects'] !== null) {
    a.requiredProjects = readRequiredProjects(map['required-projects'], ctx);
  }
  for (const [key, attr] of [
    ['vars', 'vars'],
    ['extra-vars', 'extraVars'],
    ['host-vars', 'hostVars'],
    ['group-vars', 'groupVars'],
  ] as const) {
    const value = map[key];
    if (value === undefined || value === null) {
      continue;
    }
    if (!isYamlMapping(value)) {
      throw syntax(`expected a dictionary for dictionary value @ data['${key}']`, key);
    }
    if (key === 'vars' || key === 'extra-vars') {
      checkVariableNames(value, key);
    } else {
      for (const [host, hostVars] of Object.entries(value)) {
        if (!isYamlMapping(hostVars)) {
          throw syntax(`expected a dictionary for dictionary value @ data['${key}']['${host}']`, key);
        }
        checkVariableNames(hostVars, key);
      }
    }
    a[attr] = toPlainData(value) as Record<string, unknown>;
  }
  if (map['include-vars'] !== undefined && map['include-vars'] !== null) {
    a.includeVars = readIncludeVars(map['include-vars']);
  }
  if (map.dependencies !== undefined && map.dependencies !== null) {
    a.dependencies = readDependencies(map.dependencies);
  }
  if (map['allowed-projects'] !== undefined && map['allowed-projects'] !== null) {
    a.allowedProjects = strList(map['allowed-projects'], 'allowed-projects').map(
      (p) => ctx.resolveProject(p, 'allowed-projects').canonicalName,
    );
  }
  a.overrideCheckout = optString(map, 'override-checkout') ?? optString(map, 'override-branch');
  const postReview = optBool(map, 'post-review');
  if (postReview === false) {
    throw new ConfigObjectError('Unable to reset post-review attribute', ErrorName.unknown, 'post-review');
  }
  a.postReview = postReview;
  a.workspaceScheme = optEnum(map, 'workspace-scheme', ['golang', 'flat', 'unique'] as const);
  a.workspaceCheckout = boolOrAuto(map, 'workspace-checkout');
  a.deduplicate = boolOrAuto(map, 'deduplicate');
  if (map['failure-output'] !== undefined && map['failure-output'] !== null) {
    a.failureOutput = strList(map['failure-output'], 'failure-output');
    a.failureOutput.forEach((p) => compileRegex({ pattern: p, negate: false }, 'failure-output'));
  }
  a.imageBuildName = optString(map, 'image-build-name');
  return {
    name,
    sourceContext: ctx.sourceContext,
    line: 0,
    branchMatcher,
    projectPipelineVariant: inlineName !== undefined,
    attributes: dropUndefined(a),
    overrideControl,
  };
}

function dropUndefined(a: JobAttributes): JobAttributes {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) {
    if (v !== undefined) {
      out[k] = v;
    }
  }
  return out as JobAttributes;
}
