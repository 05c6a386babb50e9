/**
 * The tenant file (`main.yaml`, engine.md §1.3): tenants with their sources and options,
 * authorization rules, global semaphores and the api-root. Parsing never throws for user
 * errors: each bad item is skipped and a problem recorded with its line.
 */
import { ConfigObjectError } from './config-error';
import { compileFullMatch } from './regex';
import {
  checkKeys,
  optBool,
  optInt,
  optString,
  optStrList,
  requireMap,
  reqString,
  strList,
  type ConfigMap,
} from './schema-helpers';
import { isPlainObject, keyLine, parseTenantFileText } from './yaml-source';

export const CONFIG_CLASSES = [
  'pipeline',
  'job',
  'semaphore',
  'project',
  'project-template',
  'nodeset',
  'secret',
  'queue',
  'image',
  'flavor',
  'label',
  'section',
  'provider',
] as const;
export type ConfigClass = (typeof CONFIG_CLASSES)[number];
/** Launcher objects are loaded only when explicitly included. */
export const DEFAULT_INCLUDE: readonly ConfigClass[] = [
  'pipeline',
  'job',
  'semaphore',
  'project',
  'secret',
  'project-template',
  'nodeset',
  'queue',
];

/** The per-tenant view of a project (a "TPC"). */
export interface TenantProjectConfig {
  /** The name as written in the tenant file (short or canonical). */
  name: string;
  connectionName: string;
  trusted: boolean;
  include: ReadonlySet<ConfigClass>;
  shadow: string[];
  excludeUnprotectedBranches?: boolean;
  excludeLockedBranches?: boolean;
  includeBranches?: string[];
  excludeBranches?: string[];
  alwaysDynamicBranches?: string[];
  extraConfigPaths: string[];
  loadBranch: string;
  impliedBranchMatchers?: boolean;
  configureProjects: string[];
  line?: number;
}

export interface TenantConfig {
  name: string;
  /** Config projects (source order) followed by untrusted projects: the load order. */
  projects: TenantProjectConfig[];
  maxNodesPerJob: number;
  maxJobTimeout: number;
  maxChangesPerPipeline?: number;
  maxDependencies?: number;
  maxOidcTtl: number;
  allowedOidcIssuers: string[];
  excludeUnprotectedBranches: boolean;
  excludeLockedBranches: boolean;
  /** Undefined = every connection may be used. */
  allowedTriggers?: string[];
  allowedReporters?: string[];
  allowedLabels?: string[];
  disallowedLabels?: string[];
  defaultParent: string;
  defaultAnsibleVersion?: string;
  accessRules: string[];
  adminRules: string[];
  authenticationRealm?: string;
  /** Names of global semaphores this tenant may use. */
  semaphores: string[];
  webRoot?: string;
  useNodepool: boolean;
  line?: number;
}

/** `authorization-rule`: a list of claim maps, any of which grants (raw claim maps, evaluated in src/auth). */
export interface AuthorizationRule {
  name: string;
  conditions: Array<Record<string, unknown>>;
}

export interface GlobalSemaphore {
  name: string;
  max: number;
}

export interface ApiRoot {
  authenticationRealm?: string;
  accessRules: string[];
}

/** Everything the tenant file defines. */
export interface Abide {
  tenants: TenantConfig[];
  authorizationRules: AuthorizationRule[];
  globalSemaphores: ReadonlyMap<string, GlobalSemaphore>;
  apiRoot?: ApiRoot;
}

export interface TenantFileProblem {
  /** Set when the problem belongs to one tenant (it then also shows among that tenant's config errors). */
  tenant?: string;
  message: string;
  line?: number;
}

export interface TenantFileResult {
  abide: Abide;
  problems: TenantFileProblem[];
}

const TENANT_KEYS = new Set([
  'name',
  'source',
  'max-nodes-per-job',
  'max-job-timeout',
  'max-changes-per-pipeline',
  'max-dependencies',
  'max-oidc-ttl',
  'allowed-oidc-issuers',
  'exclude-unprotected-branches',
  'exclude-locked-branches',
  'allowed-triggers',
  'allowed-reporters',
  'allowed-labels',
  'disallowed-labels',
  'default-parent',
  'default-ansible-version',
  'access-rules',
  'admin-rules',
  'authentication-realm',
  'semaphores',
  'web-root',
  'allow-circular-dependencies',
  'report-build-page',
  'use-nodepool',
]);
const PROJECT_OPTION_KEYS = new Set([
  'include',
  'exclude',
  'shadow',
  'exclude-unprotected-branches',
  'exclude-locked-branches',
  'include-branches',
  'exclude-branches',
  'always-dynamic-branches',
  'extra-config-paths',
  'load-branch',
  'implied-branch-matchers',
  'configure-projects',
  'allow-circular-dependencies',
]);
const DEFAULT_LOCATIONS = new Set(['zuul.yaml', 'zuul.d/', '.zuul.yaml', '.zuul.d/', 'zuul.d', '.zuul.d']);

/**
 * Parse the tenant file text. `connections` are the configured connection names (with their
 * drivers); a source naming another connection is a problem of that tenant.
 */
export function parseTenantFile(
  text: string,
  connections: Readonly<Record<string, { driver: string }>>,
): TenantFileResult {
  const parsed = parseTenantFileText(text);
  const problems: TenantFileProblem[] = parsed.problems.map((p) => ({ message: p.message, line: p.line }));
  const tenants: TenantConfig[] = [];
  const rules: AuthorizationRule[] = [];
  const globalSemaphores = new Map<string, GlobalSemaphore>();
  let apiRoot: ApiRoot | undefined;
  for (const item of parsed.items) {
    const line = item.mark.line;
    try {
      switch (item.key) {
        case 'tenant': {
          const tenant = parseTenant(item.body, connections, problems, line);
          if (tenants.some((t) => t.name === tenant.name)) {
            problems.push({ message: `Duplicate tenant name "${tenant.name}"`, line });
            break;
          }
          tenants.push(tenant);
          break;
        }
        case 'authorization-rule':
        case 'admin-rule': {
          const rule = parseAuthorizationRule(item.body);
          if (rules.some((r) => r.name === rule.name)) {
            problems.push({ message: `Duplicate authorization rule "${rule.name}"`, line });
            break;
          }
          rules.push(rule);
          break;
        }
        case 'global-semaphore': {
          const map = requireMap(item.body, 'global-semaphore');
          checkKeys(map, new Set(['name', 'max']), ['name']);
          const semaphore = { name: reqString(map, 'name'), max: optInt(map, 'max', 1) ?? 1 };
          if (globalSemaphores.has(semaphore.name)) {
            problems.push({ message: `Duplicate global semaphore "${semaphore.name}"`, line });
            break;
          }
          globalSemaphores.set(semaphore.name, semaphore);
          break;
        }
        case 'api-root': {
          if (apiRoot !== undefined) {
            problems.push({ message: 'More than one api-root is not permitted', line });
            break;
          }
          const map = requireMap(item.body ?? {}, 'api-root');
          checkKeys(map, new Set(['authentication-realm', 'access-rules']));
          apiRoot = {
            authenticationRealm: optString(map, 'authentication-realm'),
            accessRules: optStrList(map, 'access-rules') ?? [],
          };
          break;
        }
        default:
          problems.push({
            message: `Unknown tenant file item "${item.key}" (expected tenant, authorization-rule, global-semaphore or api-root)`,
            line,
          });
      }
    } catch (err) {
      const attrLine =
        err instanceof ConfigObjectError && err.attribute !== undefined ? keyLine(item.body, err.attribute) : undefined;
      problems.push({ message: `${item.key}: ${(err as Error).message}`, line: attrLine ?? line });
    }
  }
  for (const tenant of tenants) {
    for (const name of tenant.semaphores) {
      if (!globalSemaphores.has(name)) {
        problems.push({
          tenant: tenant.name,
          message: `The global semaphore "${name}" was not found`,
          line: tenant.line,
        });
      }
    }
  }
  return { abide: { tenants, authorizationRules: rules, globalSemaphores, apiRoot }, problems };
}

function parseAuthorizationRule(body: unknown): AuthorizationRule {
  const map = requireMap(body, 'authorization-rule');
  checkKeys(map, new Set(['name', 'conditions']), ['name', 'conditions']);
  const name = reqString(map, 'name');
  const raw = map.conditions;
  const list = Array.isArray(raw) ? raw : [raw];
  const conditions = list.map((c) => {
    if (!isPlainObject(c)) {
      throw new ConfigObjectError(
        `expected a dictionary for dictionary value @ data['conditions']`,
        'Unknown Configuration Error',
        'conditions',
      );
    }
    return c;
  });
  return { name, conditions };
}

function parseTenant(
  body: unknown,
  connections: Readonly<Record<string, { driver: string }>>,
  problems: TenantFileProblem[],
  line: number,
): TenantConfig {
  const map = requireMap(body, 'tenant');
  checkKeys(map, TENANT_KEYS, ['name']);
  const name = reqString(map, 'name');
  if (!/^[A-Za-z0-9_.~-]+$/.test(name)) {
    throw new ConfigObjectError(`Tenant name "${name}" is not URL-safe`, 'Unknown Configuration Error', 'name');
  }
  const tenant: TenantConfig = {
    name,
    projects: [],
    maxNodesPerJob: optInt(map, 'max-nodes-per-job', -1) ?? 5,
    maxJobTimeout: optInt(map, 'max-job-timeout', -1) ?? 10800,
    maxChangesPerPipeline: optInt(map, 'max-changes-per-pipeline', 0),
    maxDependencies: optInt(map, 'max-dependencies', 0),
    maxOidcTtl: optInt(map, 'max-oidc-ttl', 1) ?? 10800,
    allowedOidcIssuers: optStrList(map, 'allowed-oidc-issuers') ?? [],
    excludeUnprotectedBranches: optBool(map, 'exclude-unprotected-branches') ?? false,
    excludeLockedBranches: optBool(map, 'exclude-locked-branches') ?? false,
    allowedTriggers: optStrList(map, 'allowed-triggers'),
    allowedReporters: optStrList(map, 'allowed-reporters'),
    allowedLabels: optStrList(map, 'allowed-labels'),
    disallowedLabels: optStrList(map, 'disallowed-labels'),
    defaultParent: optString(map, 'default-parent') ?? 'base',
    defaultAnsibleVersion:
      map['default-ansible-version'] === undefined ? undefined : String(map['default-ansible-version']),
    accessRules: optStrList(map, 'access-rules') ?? [],
    adminRules: optStrList(map, 'admin-rules') ?? [],
    authenticationRealm: optString(map, 'authentication-realm'),
    semaphores: optStrList(map, 'semaphores') ?? [],
    webRoot: normalizeWebRoot(optString(map, 'web-root')),
    useNodepool: optBool(map, 'use-nodepool') ?? true,
    line,
  };
  optBool(map, 'allow-circular-dependencies');
  optBool(map, 'report-build-page');
  const source = map.source === undefined || map.source === null ? {} : requireMap(map.source, 'source');
  const configProjects: TenantProjectConfig[] = [];
  const untrustedProjects: TenantProjectConfig[] = [];
  for (const [connectionName, spec] of Object.entries(source)) {
    const sourceLine = keyLine(source, connectionName) ?? line;
    if (!(connectionName in connections)) {
      problems.push({ tenant: name, message: `Unknown connection named "${connectionName}"`, line: sourceLine });
      continue;
    }
    try {
      const specMap = requireMap(spec ?? {}, `source ${connectionName}`);
      checkKeys(specMap, new Set(['config-projects', 'untrusted-projects']));
      configProjects.push(
        ...readProjectList(specMap['config-projects'], connectionName, true, new Set(DEFAULT_INCLUDE), specMap),
      );
      untrustedProjects.push(
        ...readProjectList(specMap['untrusted-projects'], connectionName, false, new Set(DEFAULT_INCLUDE), specMap),
      );
    } catch (err) {
      problems.push({ tenant: name, message: `source ${connectionName}: ${(err as Error).message}`, line: sourceLine });
    }
  }
  const seen = new Set<string>();
  for (const tpc of [...configProjects, ...untrustedProjects]) {
    const key = `${tpc.connectionName}\u0000${tpc.name}`;
    if (seen.has(key)) {
      problems.push({
        tenant: name,
        message: `Project "${tpc.name}" is listed more than once in tenant "${name}"`,
        line: tpc.line,
      });
      continue;
    }
    seen.add(key);
    tenant.projects.push(tpc);
  }
  return tenant;
}

function normalizeWebRoot(value: string | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  return value.endsWith('/') ? value : `${value}/`;
}

function readClasses(value: unknown, key: string): ConfigClass[] {
  const names = strList(value, key);
  for (const n of names) {
    if (!(CONFIG_CLASSES as readonly string[]).includes(n)) {
      throw new ConfigObjectError(`Unknown configuration class "${n}" in ${key}`, 'Unknown Configuration Error', key);
    }
  }
  return names as ConfigClass[];
}

function classSet(current: ReadonlySet<ConfigClass>, options: ConfigMap): Set<ConfigClass> {
  let result = new Set(current);
  if (options.include !== undefined && options.include !== null) {
    result = new Set(readClasses(options.include, 'include'));
  }
  if (options.exclude !== undefined && options.exclude !== null) {
    for (const c of readClasses(options.exclude, 'exclude')) {
      result.delete(c);
    }
  }
  return result;
}

function readProjectList(
  value: unknown,
  connectionName: string,
  trusted: boolean,
  classes: ReadonlySet<ConfigClass>,
  lineSource: unknown,
): TenantProjectConfig[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new ConfigObjectError(`expected a list of projects`, 'Unknown Configuration Error');
  }
  const out: TenantProjectConfig[] = [];
  for (const entry of value) {
    if (typeof entry === 'string') {
      out.push(
        projectConfig(
          entry,
          {},
          connectionName,
          trusted,
          classes,
          keyLine(lineSource, trusted ? 'config-projects' : 'untrusted-projects'),
        ),
      );
      continue;
    }
    const map = requireMap(entry, 'a project entry');
    if ('projects' in map) {
      checkKeys(map, new Set(['projects', 'include', 'exclude']));
      const groupClasses = classSet(classes, map);
      out.push(...readProjectList(map.projects, connectionName, trusted, groupClasses, map));
      continue;
    }
    const keys = Object.keys(map);
    if (keys.length !== 1) {
      throw new ConfigObjectError(
        `A project entry must have exactly one key (the project name) or be a project group with "projects"`,
        'Unknown Configuration Error',
      );
    }
    const options = map[keys[0]] === null ? {} : requireMap(map[keys[0]], `options of project ${keys[0]}`);
    out.push(projectConfig(keys[0], options, connectionName, trusted, classes, keyLine(map, keys[0])));
  }
  return out;
}

function projectConfig(
  name: string,
  options: ConfigMap,
  connectionName: string,
  trusted: boolean,
  classes: ReadonlySet<ConfigClass>,
  line: number | undefined,
): TenantProjectConfig {
  checkKeys(options, PROJECT_OPTION_KEYS);
  const extraConfigPaths = optStrList(options, 'extra-config-paths') ?? [];
  for (const p of extraConfigPaths) {
    if (DEFAULT_LOCATIONS.has(p)) {
      throw new ConfigObjectError(
        `Default zuul configs are not allowed in extra-config-paths: "${p}"`,
        'Unknown Configuration Error',
        'extra-config-paths',
      );
    }
  }
  const branchRegexes = (key: string): string[] | undefined => {
    const list = optStrList(options, key);
    list?.forEach((p) => compileFullMatch(p, key));
    return list;
  };
  const configureProjects = optStrList(options, 'configure-projects') ?? [];
  if (trusted && configureProjects.length > 0) {
    throw new ConfigObjectError(
      'configure-projects is only allowed for untrusted projects',
      'Unknown Configuration Error',
      'configure-projects',
    );
  }
  optBool(options, 'allow-circular-dependencies');
  return {
    name,
    connectionName,
    trusted,
    include: classSet(classes, options),
    shadow: optStrList(options, 'shadow') ?? [],
    excludeUnprotectedBranches: optBool(options, 'exclude-unprotected-branches'),
    excludeLockedBranches: optBool(options, 'exclude-locked-branches'),
    includeBranches: branchRegexes('include-branches'),
    excludeBranches: branchRegexes('exclude-branches'),
    alwaysDynamicBranches: branchRegexes('always-dynamic-branches'),
    extraConfigPaths,
    loadBranch: optString(options, 'load-branch') ?? 'master',
    impliedBranchMatchers: optBool(options, 'implied-branch-matchers'),
    configureProjects,
    line,
  };
}

/** The branches of a project that are loaded, given the TPC's filters. */
export function branchesToLoad(tpc: TenantProjectConfig, branches: readonly string[]): string[] {
  if (tpc.trusted) {
    return branches.includes(tpc.loadBranch) ? [tpc.loadBranch] : [];
  }
  const include = tpc.includeBranches?.map((p) => compileFullMatch(p));
  const exclude = [...(tpc.excludeBranches ?? []), ...(tpc.alwaysDynamicBranches ?? [])].map((p) =>
    compileFullMatch(p),
  );
  return branches.filter((b) => {
    if (include && include.length > 0) {
      return include.some((m) => m(b));
    }
    return !exclude.some((m) => m(b));
  });
}
