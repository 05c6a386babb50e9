/**
 * Readers and checks of single `job` attributes: secrets, semaphores, playbooks,
 * roles, required projects, variables, dependencies, timeouts. `parseJob` (parse-job.ts) combines them.
 */
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
  Playbook,
  RequiredProject,
} from './layout';
import type { ParseContext } from './parse-context';
import { parseNodeset } from './parse-nodeset';
import { compileRegex, readRegexList, warnDeprecatedRegexes, type RegexSpec } from './regex';
import { checkKeys, optBool, optString, requireMap, strList, type ConfigMap } from './schema-helpers';

/**
 * Attributes whose combination with a parent's can be steered (`!override` / `!inherit`) and that
 * `attribute-control` may make final, by their configuration key.
 */
export const CONTROLLABLE_ATTRIBUTES: Readonly<Partial<Record<string, JobAttributeName>>> = {
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

export function syntax(message: string, attribute: string): ConfigObjectError {
  return new ConfigObjectError(message, ErrorName.syntax, attribute);
}

export function checkTimeouts(a: JobAttributes, ctx: ParseContext): void {
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

export function checkedRegexes(value: unknown, key: string, ctx: ParseContext): RegexSpec[] {
  const specs = readRegexList(value, key);
  specs.forEach((spec) => compileRegex(spec, key));
  warnDeprecatedRegexes(specs, key, ctx.warnings);
  return specs;
}

export function boolOrAuto(map: ConfigMap, key: string): boolean | 'auto' | undefined {
  const value = map[key];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value === 'boolean' || value === 'auto') {
    return value;
  }
  throw syntax(`expected bool or "auto" for dictionary value @ data['${key}']`, key);
}

export function readAttributeControl(value: unknown): Record<string, { final: boolean }> {
  const map = requireMap(value, 'attribute-control');
  const out: Record<string, { final: boolean }> = {};
  for (const [key, setting] of Object.entries(map)) {
    if (!(key in CONTROLLABLE_ATTRIBUTES)) {
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

export function readSemaphores(value: unknown, key: string): JobSemaphore[] {
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

export function readSecrets(value: unknown): JobSecret[] {
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

export function readJobNodeset(value: unknown, ctx: ParseContext): JobNodeset {
  if (typeof value === 'string') {
    return { kind: 'named', name: value };
  }
  return { kind: 'anonymous', nodeset: parseNodeset(value, ctx, true) };
}

export function readPlaybooks(
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

export function readRoles(value: unknown, ctx: ParseContext): JobRole[] {
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

export function readRequiredProjects(value: unknown, ctx: ParseContext): RequiredProject[] {
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

export function checkVariableNames(vars: Record<string, unknown>, key: string): void {
  for (const name of Object.keys(vars)) {
    if (RESERVED_VARS.has(name)) {
      throw new ConfigObjectError(`Variable name "${name}" is not allowed.`, ErrorName.unknown, key);
    }
    if (key === 'vars' && !VAR_NAME.test(name)) {
      throw new ConfigObjectError(`Variable name "${name}" is not a valid variable name.`, ErrorName.syntax, key);
    }
  }
}

export function readIncludeVars(value: unknown): IncludeVars[] {
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

export function readDependencies(value: unknown): JobDependency[] {
  return listOf(value).map((entry): JobDependency => {
    if (typeof entry === 'string') {
      return { name: entry, soft: false };
    }
    const map = requireMap(entry, 'dependencies');
    checkKeys(map, new Set(['name', 'soft']), ['name'], "data['dependencies']");
    return { name: String(map.name), soft: optBool(map, 'soft') ?? false };
  });
}
