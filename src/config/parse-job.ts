/** `job` definitions (engine.md §1.5), top-level and as project-pipeline variants. */
import { ConfigObjectError, ErrorName } from './config-error';
import type {
  IncludeVars,
  JobAttributeName,
  JobAttributes,
  JobDependency,
  JobNodeset,
  JobRole,
  JobSecret,
  JobSemaphore,
  JobVariant,
  Playbook,
  RequiredProject,
} from './layout';
import { impliedBranchMatcher, type ParseContext } from './parse-context';
import { parseNodeset } from './parse-nodeset';
import { compileRegex, isDeprecatedRegex, readRegexList, type BranchMatcher, type RegexSpec } from './regex';
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
import { isPlainObject, OverrideControl } from './yaml-source';

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

/** Attributes whose combination can be steered with `!override` / `!inherit`. */
const OVERRIDE_CONTROL: Partial<Record<string, JobAttributeName>> = {
  files: 'files',
  'irrelevant-files': 'irrelevantFiles',
  tags: 'tags',
  provides: 'provides',
  requires: 'requires',
  'required-projects': 'requiredProjects',
  vars: 'vars',
  'extra-vars': 'extraVars',
  'host-vars': 'hostVars',
  'group-vars': 'groupVars',
  'include-vars': 'includeVars',
  dependencies: 'dependencies',
  'failure-output': 'failureOutput',
};

/** Attributes that `attribute-control` may make final. */
export const ATTRIBUTE_CONTROL_KEYS: Readonly<Record<string, JobAttributeName>> = {
  requires: 'requires',
  provides: 'provides',
  tags: 'tags',
  files: 'files',
  'irrelevant-files': 'irrelevantFiles',
  'required-projects': 'requiredProjects',
  vars: 'vars',
  'extra-vars': 'extraVars',
  'host-vars': 'hostVars',
  'group-vars': 'groupVars',
  'include-vars': 'includeVars',
  dependencies: 'dependencies',
  'failure-output': 'failureOutput',
};

const RESERVED_VARS = new Set([
  'zuul',
  'nodepool',
  'unsafe_vars',
  'ansible_connection',
  'ansible_host',
  'ansible_python_interpreter',
  'ansible_shell_executable',
  'ansible_user',
]);
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_ALIAS = /^[a-zA-Z][a-zA-Z0-9_]*$/;

function syntax(message: string, attribute: string): ConfigObjectError {
  return new ConfigObjectError(message, ErrorName.syntax, attribute);
}

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
      const attr = OVERRIDE_CONTROL[key];
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
  // Each script carries the roles of the definition that adds it, as the reference shows them
  // on job variants (compat.md §2.17); inheritance re-binds them per level (apply-variant).
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
    if (!isPlainObject(value)) {
      throw syntax(`expected a dictionary for dictionary value @ data['${key}']`, key);
    }
    if (key === 'vars' || key === 'extra-vars') {
      checkVariableNames(value, key);
    } else {
      for (const [host, hostVars] of Object.entries(value)) {
        if (!isPlainObject(hostVars)) {
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

function checkTimeouts(a: JobAttributes, ctx: ParseContext): void {
  const max = ctx.tenant.maxJobTimeout;
  for (const [key, value] of [
    ['timeout', a.timeout],
    ['pre-timeout', a.preTimeout],
    ['post-timeout', a.postTimeout],
  ] as const) {
    if (value !== undefined && max !== -1 && value > max) {
      throw new ConfigObjectError(
        `The job "${key}" value ${value} exceeds tenant max-job-timeout ${max}.`,
        ErrorName.maxTimeout,
        key,
      );
    }
  }
  if (a.preTimeout !== undefined && a.timeout !== undefined && a.preTimeout > a.timeout) {
    throw new ConfigObjectError(
      `The job "pre-timeout" value ${a.preTimeout} exceeds its "timeout" value ${a.timeout}.`,
      ErrorName.preTimeoutExceedsTimeout,
      'pre-timeout',
    );
  }
}

function checkedRegexes(value: unknown, key: string, ctx: ParseContext): RegexSpec[] {
  const specs = readRegexList(value, key);
  for (const spec of specs) {
    compileRegex(spec, key);
    if (isDeprecatedRegex(spec.pattern)) {
      ctx.warnings.push(
        new ConfigObjectError(
          `The regular expression "${spec.pattern}" uses syntax RE2 does not support; it is deprecated.`,
          ErrorName.regexDeprecation,
          key,
          'warning',
        ),
      );
    }
  }
  return specs;
}

function boolOrAuto(map: ConfigMap, key: string): boolean | 'auto' | undefined {
  const value = map[key];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value === 'boolean' || value === 'auto') {
    return value;
  }
  throw syntax(`expected bool or "auto" for dictionary value @ data['${key}']`, key);
}

function readAttributeControl(value: unknown): Record<string, { final: boolean }> {
  const map = requireMap(value, 'attribute-control');
  const out: Record<string, { final: boolean }> = {};
  for (const [key, setting] of Object.entries(map)) {
    if (!(key in ATTRIBUTE_CONTROL_KEYS)) {
      throw syntax(`extra keys not allowed @ data['attribute-control']['${key}']`, 'attribute-control');
    }
    const s = requireMap(setting, `attribute-control ${key}`);
    checkKeys(s, new Set(['final']), [], `data['attribute-control']['${key}']`);
    const final = optBool(s, 'final');
    out[key] = { final: final === true };
  }
  return out;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function readSemaphores(value: unknown, key: string): JobSemaphore[] {
  const out = listOf(value).map((entry): JobSemaphore => {
    if (typeof entry === 'string') {
      return { name: entry, resourcesFirst: false };
    }
    const map = requireMap(entry, key);
    checkKeys(map, new Set(['name', 'resources-first']), ['name'], `data['${key}']`);
    return { name: String(map.name), resourcesFirst: optBool(map, 'resources-first') ?? false };
  });
  return out.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

function readSecrets(value: unknown): JobSecret[] {
  const seen = new Set<string>();
  return listOf(value).map((entry): JobSecret => {
    let secret: JobSecret;
    if (typeof entry === 'string') {
      secret = { alias: entry, secretName: entry, passToParent: false };
    } else {
      const map = requireMap(entry, 'secrets');
      checkKeys(map, new Set(['name', 'secret', 'pass-to-parent']), ['name', 'secret'], "data['secrets']");
      secret = {
        alias: String(map.name),
        secretName: String(map.secret),
        passToParent: optBool(map, 'pass-to-parent') ?? false,
      };
    }
    if (!SECRET_ALIAS.test(secret.alias)) {
      throw new ConfigObjectError(
        `Secret name "${secret.alias}" is not a valid variable name`,
        ErrorName.syntax,
        'secrets',
      );
    }
    if (seen.has(secret.alias)) {
      throw new ConfigObjectError(`Secret name "${secret.alias}" is used more than once`, ErrorName.unknown, 'secrets');
    }
    seen.add(secret.alias);
    return secret;
  });
}

function readJobNodeset(value: unknown, ctx: ParseContext): JobNodeset {
  if (typeof value === 'string') {
    return { kind: 'named', name: value };
  }
  return { kind: 'anonymous', nodeset: parseNodeset(value, ctx, true) };
}

function readPlaybooks(
  value: unknown,
  key: string,
  cleanupAllowed: boolean,
  context: { sourceContext: ParseContext['sourceContext']; secrets: JobSecret[]; roles: JobRole[] },
): Playbook[] {
  return listOf(value).map((entry): Playbook => {
    const base = { sourceContext: context.sourceContext, secrets: context.secrets, roles: context.roles };
    if (typeof entry === 'string') {
      return { ...base, path: entry, semaphores: [], cleanup: false };
    }
    const map = requireMap(entry, key);
    checkKeys(
      map,
      cleanupAllowed
        ? new Set(['name', 'semaphores', 'semaphore', 'cleanup'])
        : new Set(['name', 'semaphores', 'semaphore']),
      ['name'],
      `data['${key}']`,
    );
    const semaphores = strList(map.semaphores ?? map.semaphore, key);
    return { ...base, path: String(map.name), semaphores, cleanup: optBool(map, 'cleanup') ?? false };
  });
}

function readRoles(value: unknown, ctx: ParseContext): JobRole[] {
  const roles: JobRole[] = [];
  if (value !== undefined && value !== null) {
    if (!Array.isArray(value)) {
      throw syntax(`expected a list for dictionary value @ data['roles']`, 'roles');
    }
    for (const entry of value) {
      const map = requireMap(entry, 'roles');
      if ('galaxy' in map) {
        checkKeys(map, new Set(['galaxy', 'name']), [], "data['roles']");
        roles.push({
          type: 'galaxy',
          targetName: String(map.name ?? map.galaxy),
          projectCanonicalName: String(map.galaxy),
          implicit: false,
        });
        continue;
      }
      checkKeys(map, new Set(['zuul', 'name']), ['zuul'], "data['roles']");
      const project = ctx.resolveProject(String(map.zuul), 'roles');
      const target = typeof map.name === 'string' ? map.name : (project.name.split('/').pop() ?? project.name);
      roles.push({ type: 'zuul', targetName: target, projectCanonicalName: project.canonicalName, implicit: false });
    }
  }
  const own = ctx.sourceContext.projectCanonicalName;
  if (!roles.some((r) => r.type === 'zuul' && r.projectCanonicalName === own)) {
    roles.push({
      type: 'zuul',
      targetName: ctx.sourceContext.projectName.split('/').pop() ?? ctx.sourceContext.projectName,
      projectCanonicalName: own,
      implicit: true,
    });
  }
  return roles;
}

function readRequiredProjects(value: unknown, ctx: ParseContext): RequiredProject[] {
  return listOf(value).map((entry): RequiredProject => {
    if (typeof entry === 'string') {
      return { projectName: entry, projectCanonicalName: ctx.resolveProject(entry, 'required-projects').canonicalName };
    }
    const map = requireMap(entry, 'required-projects');
    checkKeys(map, new Set(['name', 'override-branch', 'override-checkout']), ['name'], "data['required-projects']");
    const name = String(map.name);
    return {
      projectName: name,
      projectCanonicalName: ctx.resolveProject(name, 'required-projects').canonicalName,
      overrideBranch: optString(map, 'override-branch'),
      overrideCheckout: optString(map, 'override-checkout') ?? optString(map, 'override-branch'),
    };
  });
}

function checkVariableNames(vars: Record<string, unknown>, key: string): void {
  for (const name of Object.keys(vars)) {
    if (RESERVED_VARS.has(name)) {
      throw new ConfigObjectError(`Variable name "${name}" is not allowed.`, ErrorName.unknown, key);
    }
    if (key === 'vars' && !VAR_NAME.test(name)) {
      throw new ConfigObjectError(`Variable name "${name}" is not a valid variable name.`, ErrorName.syntax, key);
    }
  }
}

function readIncludeVars(value: unknown): IncludeVars[] {
  return listOf(value).map((entry): IncludeVars => {
    if (typeof entry === 'string') {
      return { name: entry, zuulProject: false, required: true, useRef: true };
    }
    const map = requireMap(entry, 'include-vars');
    checkKeys(
      map,
      new Set(['name', 'project', 'zuul-project', 'required', 'use-ref']),
      ['name'],
      "data['include-vars']",
    );
    if (map.project !== undefined && map['zuul-project'] !== undefined) {
      throw syntax('"project" and "zuul-project" are mutually exclusive in include-vars', 'include-vars');
    }
    return {
      name: String(map.name),
      projectName: optString(map, 'project'),
      zuulProject: optBool(map, 'zuul-project') ?? false,
      required: optBool(map, 'required') ?? true,
      useRef: optBool(map, 'use-ref') ?? true,
    };
  });
}

function readDependencies(value: unknown): JobDependency[] {
  return listOf(value).map((entry): JobDependency => {
    if (typeof entry === 'string') {
      return { name: entry, soft: false };
    }
    const map = requireMap(entry, 'dependencies');
    checkKeys(map, new Set(['name', 'soft']), ['name'], "data['dependencies']");
    return { name: String(map.name), soft: optBool(map, 'soft') ?? false };
  });
}
