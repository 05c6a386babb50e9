/**
 * The `source` section of a tenant: per connection, its config and untrusted project lists, with
 * project groups, included and excluded configuration classes and per-project options; and which
 * branches of a project are loaded.
 */
import { ConfigObjectError } from './config-error';
import { compileFullMatch } from './regex';
import { checkKeys, optBool, optString, optStrList, requireMap, strList, type ConfigMap } from './schema-helpers';
import { keyLine } from './yaml-source';

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
/** The launcher ("provider configuration") classes. */
export const PROVIDER_CLASSES: readonly ConfigClass[] = ['image', 'flavor', 'label', 'section', 'provider'];
/**
 * What untrusted projects load by default: everything but the launcher objects, which they load
 * only when included (`include`, `include-provider-config`). Config projects load every class
 * (docs/project-configuration.md#the-tenant-file).
 */
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
  'include-provider-config',
  'allow-reporter-jobs',
]);
/** Options only untrusted projects take. */
const UNTRUSTED_ONLY_OPTIONS = ['configure-projects', 'allow-reporter-jobs'];
const DEFAULT_LOCATIONS = new Set(['zuul.yaml', 'zuul.d/', '.zuul.yaml', '.zuul.d/', 'zuul.d', '.zuul.d']);

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
  // After include, before exclude, as in the reference.
  if (optBool(options, 'include-provider-config') === true) {
    PROVIDER_CLASSES.forEach((c) => result.add(c));
  }
  if (options.exclude !== undefined && options.exclude !== null) {
    for (const c of readClasses(options.exclude, 'exclude')) {
      result.delete(c);
    }
  }
  return result;
}

/** The projects of one list (`config-projects` or `untrusted-projects`), groups flattened. */
export function readProjectList(
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
  for (const key of UNTRUSTED_ONLY_OPTIONS) {
    if (trusted && options[key] !== undefined) {
      throw new ConfigObjectError(`${key} is only allowed for untrusted projects`, 'Unknown Configuration Error', key);
    }
  }
  // Accepted and ignored: legacy (queues decide), and reporter jobs Sluice does not have.
  optBool(options, 'allow-circular-dependencies');
  optBool(options, 'allow-reporter-jobs');
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

/**
 * The branches of a project that are always dynamic: matched by `always-dynamic-branches` and
 * not loaded (`include-branches` wins), sorted (docs/project-configuration.md#always-dynamic-branches).
 */
export function dynamicBranches(tpc: TenantProjectConfig, branches: readonly string[]): string[] {
  if (tpc.trusted || tpc.alwaysDynamicBranches === undefined) {
    return [];
  }
  const dynamic = tpc.alwaysDynamicBranches.map((p) => compileFullMatch(p));
  const loaded = new Set(branchesToLoad(tpc, branches));
  return branches.filter((b) => !loaded.has(b) && dynamic.some((m) => m(b))).sort();
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
  // An explicit `include-branches` (even an empty one) decides alone, as in the reference.
  return branches.filter((b) => {
    if (include !== undefined) {
      return include.some((m) => m(b));
    }
    return !exclude.some((m) => m(b));
  });
}
