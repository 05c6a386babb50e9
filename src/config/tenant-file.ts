/**
 * The tenant file (`main.yaml`, docs/project-configuration.md#the-tenant-file): tenants with their sources and options,
 * authorization rules, global semaphores and the api-root. Parsing never throws for user
 * errors: each bad item is skipped and a problem recorded with its line.
 */
import { ConfigObjectError } from './config-error';
import { unknownAnsibleVersion } from './ansible-versions';
import { checkKeys, optBool, optInt, optString, optStrList, requireMap, reqString } from './schema-helpers';
import { isYamlMapping, keyLine, parseTenantFileText } from './yaml-source';
import { CONFIG_CLASSES, DEFAULT_INCLUDE, readProjectList, type TenantProjectConfig } from './tenant-sources';
import { effectiveAccess, parseRole, readRoleMappings, type Role } from './tenant-access';
import { isTenantName } from '../model/value-checks';

export interface TenantConfig {
  name: string;
  /** Config projects (source order) followed by untrusted projects: the load order. */
  projects: TenantProjectConfig[];
  maxNodesPerJob: number;
  maxJobTimeout: number;
  maxChangesPerPipeline?: number;
  maxDependencies?: number;
  maxOidcTtl: number;
  /** The ttl of an `oidc` secret that sets none. */
  defaultOidcTtl: number;
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
  /** Rules granting read, as enforced (from `access-rules`, or from `role-mappings` when given). */
  accessRules: string[];
  /** Rules granting admin, as enforced (from `admin-rules`, or from `role-mappings` when given). */
  adminRules: string[];
  /** Reading needs a matching rule even when `accessRules` is empty (`anonymous-read-access: false`). */
  readRestricted: boolean;
  anonymousReadAccess: boolean;
  /** `role-mappings` as written: authorization-rule name -> role names. */
  roleMappings?: Record<string, string[]>;
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

export type { Role } from './tenant-access';

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
  /** `role` items by name (the built-in `admin` and `read` are not listed). */
  roles: ReadonlyMap<string, Role>;
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
  'default-oidc-ttl',
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
  'anonymous-read-access',
  'role-mappings',
  'authentication-realm',
  'semaphores',
  'web-root',
  'allow-circular-dependencies',
  'report-build-page',
  'allow-base-jobs',
  'use-nodepool',
]);

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
  const roles = new Map<string, Role>();
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
        case 'role': {
          const role = parseRole(item.body);
          if (roles.has(role.name)) {
            problems.push({ message: `Duplicate role "${role.name}"`, line });
            break;
          }
          roles.set(role.name, role);
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
            message: `Unknown tenant file item "${item.key}" (expected tenant, authorization-rule, global-semaphore, role or api-root)`,
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
  for (const tenant of tenants) {
    Object.assign(
      tenant,
      effectiveAccess(tenant, roles, (role) =>
        problems.push({ tenant: tenant.name, message: `The role "${role}" was not found`, line: tenant.line }),
      ),
    );
  }
  return { abide: { tenants, authorizationRules: rules, globalSemaphores, roles, apiRoot }, problems };
}

function parseAuthorizationRule(body: unknown): AuthorizationRule {
  const map = requireMap(body, 'authorization-rule');
  checkKeys(map, new Set(['name', 'conditions']), ['name', 'conditions']);
  const name = reqString(map, 'name');
  const raw = map.conditions;
  const list = Array.isArray(raw) ? raw : [raw];
  const conditions = list.map((c) => {
    if (!isYamlMapping(c)) {
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
  if (!isTenantName(name)) {
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
    defaultOidcTtl: optInt(map, 'default-oidc-ttl', 1) ?? 3600,
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
    // Made effective (role mappings applied) once every `role` of the file is known.
    readRestricted: false,
    anonymousReadAccess: optBool(map, 'anonymous-read-access') ?? true,
    roleMappings: readRoleMappings(map),
    authenticationRealm: optString(map, 'authentication-realm'),
    semaphores: optStrList(map, 'semaphores') ?? [],
    webRoot: normalizeWebRoot(optString(map, 'web-root')),
    useNodepool: optBool(map, 'use-nodepool') ?? true,
    line,
  };
  // Accepted and ignored (docs/project-configuration.md#the-tenant-file).
  optBool(map, 'allow-circular-dependencies');
  optBool(map, 'report-build-page');
  optBool(map, 'allow-base-jobs');
  const unknownVersion =
    tenant.defaultAnsibleVersion === undefined ? undefined : unknownAnsibleVersion(tenant.defaultAnsibleVersion);
  if (unknownVersion !== undefined) {
    problems.push({ tenant: name, message: unknownVersion, line: keyLine(map, 'default-ansible-version') ?? line });
  }
  if (map['default-oidc-ttl'] !== undefined && tenant.defaultOidcTtl > tenant.maxOidcTtl) {
    problems.push({
      tenant: name,
      message: `default-oidc-ttl ${tenant.defaultOidcTtl} exceeds max-oidc-ttl ${tenant.maxOidcTtl}`,
      line: keyLine(map, 'default-oidc-ttl') ?? line,
    });
  }
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
        ...readProjectList(specMap['config-projects'], connectionName, true, new Set(CONFIG_CLASSES), specMap),
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
