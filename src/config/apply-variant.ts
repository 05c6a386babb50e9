/**
 * Inheritance of job attributes (docs/project-configuration.md#inheritance-rules): a job under construction starts from
 * the base-most variant and each later variant (parents first, then the job's own variants, then
 * project-pipeline variants) is applied with the combination rule of each attribute.
 */
import type {
  JobAttributeName,
  JobAttributes,
  JobRole,
  JobVariant,
  Playbook,
  RequiredProject,
  SourceContext,
} from './layout';
import type { RegexSpec } from './regex';
import { CONTROLLABLE_ATTRIBUTES } from './parse-job-attributes';
import { isPlainObject } from '../model/value-checks';

/** Attributes that change how a job executes; final and protected jobs guard them. */
const EXECUTION_ATTRIBUTES: readonly JobAttributeName[] = [
  'parent',
  'timeout',
  'preTimeout',
  'postTimeout',
  'vars',
  'extraVars',
  'hostVars',
  'groupVars',
  'includeVars',
  'nodeset',
  'preRun',
  'run',
  'postRun',
  'cleanupRun',
  'ansibleSplitStreams',
  'ansibleVersion',
  'semaphores',
  'attempts',
  'roles',
  'requiredProjects',
  'allowedProjects',
  'overrideCheckout',
  'postReview',
  'workspaceScheme',
  'workspaceCheckout',
  'failureOutput',
  'imageBuildName',
  'secrets',
];

/** The job being frozen: accumulated attributes plus the inheritance bookkeeping. */
export interface JobUnderConstruction {
  name: string;
  attributes: JobAttributes;
  final: boolean;
  abstract: boolean;
  intermediate: boolean;
  protected: boolean | null;
  protectedOrigin?: string;
  postReview: boolean;
  /** Canonical project names; undefined = unrestricted. */
  allowedProjects?: Set<string>;
  /** Attribute-control names that are final. */
  finalAttributes: Set<string>;
  inheritancePath: string[];
  /** The variant whose definition names this job (first variant of the requested name). */
  sourceContext: SourceContext;
  /** Name of the job whose variant was applied last (a different name means a child job). */
  attributesOwner?: string;
}

export class InheritanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InheritanceError';
  }
}

function describe(v: JobVariant): string {
  const c = v.sourceContext;
  const branches = v.branchMatcher ? ` branches: ${v.branchMatcher.regexes.map((r) => r.pattern).join(', ')}` : '';
  return `<Job ${v.name}${branches} source: ${c.projectName}/${c.path}@${c.branch}#${v.line}>`;
}

/** Start a job from its base-most variant. */
export function startJob(
  name: string,
  first: JobVariant,
  requestedContext: SourceContext,
  level: number,
): JobUnderConstruction {
  const job: JobUnderConstruction = {
    name,
    attributes: {},
    final: false,
    abstract: false,
    intermediate: false,
    protected: null,
    postReview: false,
    finalAttributes: new Set(),
    inheritancePath: [],
    sourceContext: requestedContext,
  };
  applyVariant(job, first, level);
  return job;
}

/** Deep merge: nested maps merge, other values of `over` replace those of `under`. */
export function deepMerge(under: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...under };
  for (const [k, v] of Object.entries(over)) {
    const u = out[k];
    if (isPlainObject(u) && isPlainObject(v)) {
      out[k] = deepMerge(u, v);
    } else {
      out[k] = v;
    }
  }
  return out;
}

function union(a: readonly string[] | undefined, b: readonly string[]): string[] {
  return [...new Set([...(a ?? []), ...b])];
}

function unionRegex(a: readonly RegexSpec[] | undefined, b: readonly RegexSpec[]): RegexSpec[] {
  const out = [...(a ?? [])];
  for (const r of b) {
    if (!out.some((x) => x.pattern === r.pattern && x.negate === r.negate)) {
      out.push(r);
    }
  }
  return out;
}

function withLevel(playbooks: readonly Playbook[] | undefined, level: number, variant: JobVariant): Playbook[] {
  const secrets = (variant.attributes.secrets ?? []).filter((s) => !s.passToParent);
  const roles = variant.attributes.roles ?? [];
  return (playbooks ?? []).map((p) => ({ ...p, nestingLevel: level, secrets, roles }));
}

/**
 * Apply `other` to `job` (docs/project-configuration.md#inheritance-rules). `level` is the playbook nesting level of
 * the variant (0 for the job itself, growing towards the base job). Throws InheritanceError for
 * final/protected/attribute-control violations.
 */
export function applyVariant(job: JobUnderConstruction, other: JobVariant, level: number): void {
  const a = other.attributes;
  const project = other.sourceContext.projectCanonicalName;
  const isChild = other.name !== job.attributesOwner;
  for (const attr of EXECUTION_ATTRIBUTES) {
    if (a[attr] === undefined || (attr === 'roles' && (a.roles ?? []).every((r) => r.implicit))) {
      continue;
    }
    if (job.final) {
      throw new InheritanceError(
        `Unable to modify final job ${job.name} attribute ${attr} with variant ${describe(other)}`,
      );
    }
    if (job.protected === true && job.protectedOrigin !== undefined && job.protectedOrigin !== project) {
      throw new InheritanceError(
        `Unable to modify protected job ${job.name} attribute ${attr} with variant ${describe(other)} from another project`,
      );
    }
  }
  for (const [key, attr] of Object.entries(CONTROLLABLE_ATTRIBUTES)) {
    if (attr !== undefined && a[attr] !== undefined && job.finalAttributes.has(key)) {
      throw new InheritanceError(
        `Unable to modify job ${job.name} final attribute ${key} with variant ${describe(other)}`,
      );
    }
  }
  for (const [key, setting] of Object.entries(a.attributeControl ?? {})) {
    if (setting.final) {
      job.finalAttributes.add(key);
    }
  }
  if (a.final === true) {
    job.final = true;
  }
  if (isChild) {
    if (job.intermediate && a.abstract !== true) {
      throw new InheritanceError(
        `Intermediate job ${job.attributesOwner} may only be inherited by another abstract job (attempted by ${describe(other)})`,
      );
    }
    job.abstract = a.abstract ?? false;
    job.intermediate = a.intermediate ?? false;
  } else {
    job.abstract = job.abstract || a.abstract === true;
    job.intermediate = job.intermediate || a.intermediate === true;
  }
  if (a.protected === true && job.protectedOrigin === undefined) {
    job.protected = true;
    job.protectedOrigin = project;
  } else if (a.protected === false && job.protected === true) {
    throw new InheritanceError(
      `Unable to reset protected attribute of job ${job.name} with variant ${describe(other)}`,
    );
  } else if (a.protected === false && job.protected === null) {
    job.protected = false;
  }
  const target = job.attributes;
  const mode = (attr: JobAttributeName) => other.overrideControl[attr];
  // Scalars and replaced values.
  for (const attr of [
    'parent',
    'description',
    'variantDescription',
    'successMessage',
    'failureMessage',
    'successUrl',
    'failureUrl',
    'holdFollowingChanges',
    'voting',
    'matchOnConfigUpdates',
    'nodeset',
    'preTimeout',
    'timeout',
    'postTimeout',
    'attempts',
    'flakyRetries',
    'ansibleSplitStreams',
    'ansibleVersion',
    'overrideCheckout',
    'workspaceScheme',
    'workspaceCheckout',
    'deduplicate',
    'imageBuildName',
  ] as const) {
    if (a[attr] !== undefined) {
      (target as Record<string, unknown>)[attr] = a[attr];
    }
  }
  if (a.postReview === true) {
    job.postReview = true;
  }
  for (const attr of ['tags', 'provides', 'requires'] as const) {
    const value = a[attr];
    if (value !== undefined) {
      target[attr] = mode(attr) === 'override' ? [...value] : union(target[attr], value);
    }
  }
  for (const attr of ['files', 'irrelevantFiles'] as const) {
    const value = a[attr];
    if (value !== undefined) {
      target[attr] = mode(attr) === 'inherit' ? unionRegex(target[attr], value) : [...value];
    }
  }
  if (a.dependencies !== undefined) {
    if (mode('dependencies') === 'inherit') {
      const merged = [...(target.dependencies ?? [])];
      for (const d of a.dependencies) {
        if (!merged.some((m) => m.name === d.name)) {
          merged.push(d);
        }
      }
      target.dependencies = merged;
    } else {
      target.dependencies = [...a.dependencies];
    }
  }
  for (const attr of ['vars', 'extraVars', 'hostVars', 'groupVars'] as const) {
    const value = a[attr];
    if (value !== undefined) {
      target[attr] = mode(attr) === 'override' ? { ...value } : deepMerge(target[attr] ?? {}, value);
    }
  }
  if (a.includeVars !== undefined) {
    target.includeVars =
      mode('includeVars') === 'override'
        ? [...a.includeVars]
        : [
            ...(target.includeVars ?? []),
            ...a.includeVars.filter(
              (i) => !(target.includeVars ?? []).some((x) => x.name === i.name && x.projectName === i.projectName),
            ),
          ];
  }
  if (a.requiredProjects !== undefined) {
    if (mode('requiredProjects') === 'override') {
      target.requiredProjects = [...a.requiredProjects];
    } else {
      const byProject = new Map<string, RequiredProject>(
        (target.requiredProjects ?? []).map((r) => [r.projectCanonicalName, r]),
      );
      for (const r of a.requiredProjects) {
        byProject.set(r.projectCanonicalName, { ...byProject.get(r.projectCanonicalName), ...r });
      }
      target.requiredProjects = [...byProject.values()];
    }
  }
  if (a.allowedProjects !== undefined) {
    const incoming = new Set(a.allowedProjects);
    job.allowedProjects =
      job.allowedProjects === undefined ? incoming : new Set([...job.allowedProjects].filter((p) => incoming.has(p)));
  }
  if (a.semaphores !== undefined) {
    const byName = new Map((target.semaphores ?? []).map((s) => [s.name, s]));
    for (const s of a.semaphores) {
      byName.set(s.name, s);
    }
    target.semaphores = [...byName.values()].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  }
  if (a.failureOutput !== undefined) {
    target.failureOutput =
      mode('failureOutput') === 'override' ? [...a.failureOutput] : union(target.failureOutput, a.failureOutput);
  }
  if (a.roles !== undefined) {
    const roles: JobRole[] = [...a.roles];
    for (const r of target.roles ?? []) {
      if (
        !roles.some(
          (x) =>
            x.type === r.type && x.projectCanonicalName === r.projectCanonicalName && x.targetName === r.targetName,
        )
      ) {
        roles.push(r);
      }
    }
    target.roles = roles;
  }
  // Secrets passed to the parent reach every playbook accumulated so far.
  const passed = (a.secrets ?? []).filter((s) => s.passToParent);
  if (passed.length > 0) {
    for (const attr of ['preRun', 'run', 'postRun', 'cleanupRun'] as const) {
      target[attr] = (target[attr] ?? []).map((p) => ({
        ...p,
        secrets: [...p.secrets, ...passed.filter((s) => !p.secrets.some((x) => x.alias === s.alias))],
      }));
      if ((target[attr] ?? []).some((p) => !p.sourceContext.trusted)) {
        job.postReview = true;
      }
    }
  }
  if (a.secrets !== undefined && a.secrets.length > 0) {
    target.secrets = [
      ...(target.secrets ?? []),
      ...a.secrets.filter(
        (s) => !(target.secrets ?? []).some((x) => x.alias === s.alias && x.secretName === s.secretName),
      ),
    ];
    if (!other.sourceContext.trusted) {
      job.postReview = true;
      job.allowedProjects =
        job.allowedProjects === undefined
          ? new Set([project])
          : new Set([...job.allowedProjects].filter((p) => p === project));
    }
  }
  if (a.run !== undefined) {
    target.run = withLevel(a.run, level, other);
  }
  if (a.preRun !== undefined) {
    target.preRun = [...(target.preRun ?? []), ...withLevel(a.preRun, level, other)];
  }
  if (a.postRun !== undefined) {
    target.postRun = [...withLevel(a.postRun, level, other), ...(target.postRun ?? [])];
  }
  if (a.cleanupRun !== undefined) {
    target.cleanupRun = [...withLevel(a.cleanupRun, level, other), ...(target.cleanupRun ?? [])];
  }
  job.attributesOwner = other.name;
  job.inheritancePath.push(describe(other));
}
