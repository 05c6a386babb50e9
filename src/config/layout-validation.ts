/**
 * Cross-reference validation once every object of a tenant is known (docs/project-configuration.md#jobs,
 * docs/project-configuration.md#layout-assembly): job parents, nodesets, labels, secrets, dependencies, semaphores;
 * templates and job names of project stanzas; pipeline `supercedes`. Invalid objects are dropped with an error.
 */
import { ConfigObjectError, ErrorName, type ErrorCollector, type ErrorLocation } from './config-error';
import type { GlobalSemaphore, TenantConfig } from './tenant-file';
import type { Flavor, Image, JobVariant, Label, Nodeset, Pipeline, ProjectStanza, Secret, Semaphore } from './layout';
import type { Origin } from './layout-builder';
import { flattenNodeset, resolveJobNodeset } from './nodeset-resolution';
import type { ProjectResolver } from './project-resolver';
import { cachedRegex } from './regex';
import { BUILTIN_NOOP } from './builtin-jobs';
import { keyLines } from './yaml-source';
import type { Steps } from './time-slice';

export type OriginOf = (object: object) => Origin | undefined;

export interface ValidationInput {
  tenant: TenantConfig;
  globalSemaphores: ReadonlyMap<string, GlobalSemaphore>;
  pipelines: Map<string, Pipeline>;
  jobs: Map<string, JobVariant[]>;
  templates: Map<string, ProjectStanza[]>;
  projectStanzas: ProjectStanza[];
  nodesets: Map<string, Nodeset>;
  semaphores: Map<string, Semaphore>;
  secrets: Map<string, Secret>;
  /** Secrets dropped because a value did not decrypt. */
  undecryptableSecrets?: ReadonlySet<string>;
  labels: Map<string, Label>;
  images: Map<string, Image>;
  flavors: Map<string, Flavor>;
  resolver: ProjectResolver;
  errors: ErrorCollector;
  originOf: OriginOf;
}

export interface ValidatedLayoutParts {
  pipelines: Map<string, Pipeline>;
  jobs: Map<string, JobVariant[]>;
  templates: Map<string, ProjectStanza[]>;
  projectConfigs: Map<string, ProjectStanza[]>;
  semaphores: Map<string, Semaphore>;
}

/** A checkpoint (time-slice.ts) after each job, template and project stanza. */
export function* validateLayout(input: ValidationInput): Steps<ValidatedLayoutParts> {
  const report = (object: object, err: unknown, fallbackKind: string, fallbackName?: string): void => {
    const origin = input.originOf(object);
    const location: ErrorLocation = {
      context: origin?.context ?? (object as { sourceContext?: ErrorLocation['context'] }).sourceContext,
      mark: origin?.mark,
      stanza: { kind: origin?.kind ?? fallbackKind, name: origin?.name ?? fallbackName },
    };
    input.errors.reportException(location, err, keyLines(origin?.body));
  };
  validateNodesets(input, report);
  const pipelines = validatePipelines(input, report);
  const jobs = yield* validateJobs(input, report);
  const known = (name: string) => jobs.has(name) || name === BUILTIN_NOOP.name;
  const templates = new Map<string, ProjectStanza[]>();
  const noTemplates = () => true;
  for (const [name, list] of input.templates) {
    const kept = list.filter((t) => keepStanza(t, input, known, noTemplates, report));
    if (kept.length > 0) {
      templates.set(name, kept);
    }
    yield;
  }
  const explicit: ProjectStanza[] = [];
  const regexStanzas: ProjectStanza[] = [];
  for (const stanza of input.projectStanzas) {
    if (keepStanza(stanza, input, known, (t) => templates.has(t), report)) {
      (stanza.isRegex ? regexStanzas : explicit).push(stanza);
    }
    yield;
  }
  const projectConfigs = new Map<string, ProjectStanza[]>();
  for (const stanza of explicit) {
    const key = stanza.projectCanonicalName ?? '';
    projectConfigs.set(key, [...(projectConfigs.get(key) ?? []), stanza]);
  }
  for (const project of input.resolver.all()) {
    for (const stanza of regexStanzas) {
      const re = cachedRegex({ pattern: stanza.name, negate: false });
      if (re.test(project.canonicalName) || re.test(project.name)) {
        const applied: ProjectStanza = { ...stanza, projectCanonicalName: project.canonicalName };
        projectConfigs.set(project.canonicalName, [...(projectConfigs.get(project.canonicalName) ?? []), applied]);
      }
    }
    yield;
  }
  const semaphores = new Map<string, Semaphore>(input.semaphores);
  for (const name of input.tenant.semaphores) {
    const global = input.globalSemaphores.get(name);
    if (global !== undefined) {
      semaphores.set(name, { name, max: global.max, global: true });
    }
  }
  return { pipelines, jobs, templates, projectConfigs, semaphores };
}

type Report = (object: object, err: unknown, kind: string, name?: string) => void;

function validateNodesets(input: ValidationInput, report: Report): void {
  const broken: string[] = [];
  for (const [name, nodeset] of input.nodesets) {
    try {
      flattenNodeset(nodeset, input.nodesets, [name], 'alternatives');
    } catch (err) {
      report(nodeset, err, 'nodeset', name);
      broken.push(name);
    }
  }
  for (const name of broken) {
    input.nodesets.delete(name);
  }
}

function validatePipelines(input: ValidationInput, report: Report): Map<string, Pipeline> {
  const out = new Map<string, Pipeline>();
  for (const [name, pipeline] of input.pipelines) {
    const missing = pipeline.supercedes.find((s) => !input.pipelines.has(s));
    if (missing !== undefined) {
      report(
        pipeline,
        new ConfigObjectError(
          `The pipeline "${missing}" named in supercedes was not found.`,
          ErrorName.unknown,
          'supercedes',
        ),
        'pipeline',
        name,
      );
      continue;
    }
    out.set(name, pipeline);
  }
  return out;
}

function labelChecks(input: ValidationInput, nodesets: Nodeset[], jobName: string): void {
  const tenant = input.tenant;
  const maxNodes = tenant.maxNodesPerJob;
  for (const ns of nodesets) {
    if (maxNodes !== -1 && ns.nodes.length > maxNodes) {
      throw new ConfigObjectError(
        `The job "${jobName}" exceeds tenant max-nodes-per-job ${maxNodes}.`,
        ErrorName.unknown,
        'nodeset',
      );
    }
    for (const node of ns.nodes) {
      const allowed = tenant.allowedLabels;
      if (allowed !== undefined && !allowed.some((p) => cachedRegex({ pattern: p, negate: false }).test(node.label))) {
        throw new ConfigObjectError(
          `Label named "${node.label}" is not part of the allowed labels (${allowed.join(', ')}) for this tenant.`,
          ErrorName.labelForbidden,
          'nodeset',
        );
      }
      const disallowed = tenant.disallowedLabels ?? [];
      if (disallowed.some((p) => cachedRegex({ pattern: p, negate: false }).test(node.label))) {
        throw new ConfigObjectError(
          `Label named "${node.label}" is not allowed in this tenant.`,
          ErrorName.labelForbidden,
          'nodeset',
        );
      }
      if (!tenant.useNodepool && !input.labels.has(node.label)) {
        throw new ConfigObjectError(`The label "${node.label}" was not found.`, ErrorName.labelNotFound, 'nodeset');
      }
    }
  }
}

/** Checks that need only the variant itself and the tenant's objects. */
function checkVariant(variant: JobVariant, input: ValidationInput, jobExists: (name: string) => boolean): void {
  const a = variant.attributes;
  if (a.nodeset !== undefined) {
    labelChecks(input, resolveJobNodeset(a.nodeset, input.nodesets), variant.name);
  }
  for (const secret of a.secrets ?? []) {
    const found = input.secrets.get(secret.secretName);
    if (found === undefined && input.undecryptableSecrets?.has(secret.secretName)) {
      throw new ConfigObjectError(
        `Unable to use secret ${secret.secretName}: it could not be decrypted (see the error reported for the secret).`,
        ErrorName.unknown,
        'secrets',
      );
    }
    if (found === undefined) {
      throw new ConfigObjectError(`The secret "${secret.secretName}" was not found.`, ErrorName.unknown, 'secrets');
    }
    if (found.sourceContext.projectCanonicalName !== variant.sourceContext.projectCanonicalName) {
      throw new ConfigObjectError(
        `Unable to use secret ${secret.secretName}.  Secrets must be defined in the same project in which they are used.`,
        ErrorName.unknown,
        'secrets',
      );
    }
  }
  for (const dep of a.dependencies ?? []) {
    if (!jobExists(dep.name)) {
      throw new ConfigObjectError(`Job ${dep.name} not defined`, ErrorName.jobNotFound, 'dependencies');
    }
  }
  const jobSemaphores = new Set((a.semaphores ?? []).map((s) => s.name));
  for (const pb of [...(a.preRun ?? []), ...(a.run ?? []), ...(a.postRun ?? []), ...(a.cleanupRun ?? [])]) {
    const both = pb.semaphores.find((s) => jobSemaphores.has(s));
    if (both !== undefined) {
      throw new ConfigObjectError(
        `Semaphores ${both} specified as both job and playbook semaphores`,
        ErrorName.unknown,
        'semaphores',
      );
    }
  }
}

/** Parent relations: the parent must exist and not be only final, intermediate or foreign-protected. */
function checkParent(
  variant: JobVariant,
  jobs: ReadonlyMap<string, JobVariant[]>,
  tenant: TenantConfig,
  baseJobs: ReadonlySet<string>,
): void {
  const a = variant.attributes;
  let parent: string | null | undefined = a.parent;
  if (parent === undefined) {
    parent = baseJobs.has(variant.name) ? null : tenant.defaultParent;
  }
  if (parent === null) {
    return;
  }
  if (parent === variant.name) {
    throw new ConfigObjectError(`Job ${variant.name} can not be its own parent`, ErrorName.unknown, 'parent');
  }
  const parents = parent === BUILTIN_NOOP.name ? [BUILTIN_NOOP] : (jobs.get(parent) ?? []);
  if (parents.length === 0) {
    throw new ConfigObjectError(`Job ${parent} not defined`, ErrorName.jobNotFound, 'parent');
  }
  if (parents.every((p) => p.attributes.final === true)) {
    throw new ConfigObjectError(
      `The parent of job "${variant.name}", "${parent}" is final and can not act as a parent`,
      ErrorName.unknown,
      'parent',
    );
  }
  if (parents.every((p) => p.attributes.intermediate === true) && a.abstract !== true) {
    throw new ConfigObjectError(
      `Job "${variant.name}" inherits from intermediate job "${parent}" and must be abstract`,
      ErrorName.unknown,
      'parent',
    );
  }
  if (
    parents.every(
      (p) =>
        p.attributes.protected === true &&
        p.sourceContext.projectCanonicalName !== variant.sourceContext.projectCanonicalName,
    )
  ) {
    throw new ConfigObjectError(
      `Job "${parent}" is protected and cannot be inherited from other projects.`,
      ErrorName.unknown,
      'parent',
    );
  }
}

function* validateJobs(input: ValidationInput, report: Report): Steps<Map<string, JobVariant[]>> {
  const exists = (name: string) => input.jobs.has(name) || name === BUILTIN_NOOP.name;
  const intrinsic = new Map<string, JobVariant[]>();
  for (const [name, variants] of input.jobs) {
    const kept = variants.filter((v) => {
      try {
        checkVariant(v, input, exists);
        return true;
      } catch (err) {
        report(v, err, 'job', name);
        return false;
      }
    });
    if (kept.length > 0) {
      intrinsic.set(name, kept);
    }
    yield;
  }
  const baseJobs = new Set([...intrinsic].filter(([, vs]) => vs[0].attributes.parent === null).map(([n]) => n));
  const out = new Map<string, JobVariant[]>();
  for (const [name, variants] of intrinsic) {
    const kept = variants.filter((v) => {
      try {
        checkParent(v, intrinsic, input.tenant, baseJobs);
        return true;
      } catch (err) {
        report(v, err, 'job', name);
        return false;
      }
    });
    if (kept.length > 0) {
      out.set(name, kept);
    }
    yield;
  }
  return out;
}

/**
 * Checks a project or template stanza; false when it must be dropped. As in the reference, a job
 * or template it names that does not exist is reported and the stanza stays (freezing reports the
 * missing job on the item), so one missing name does not cascade into every project using the
 * template; an inline job variant that fails its checks drops the stanza
 * (docs/project-configuration.md#layout-assembly). A pipeline the tenant does not define is
 * accepted and never used; its jobs are still checked
 * (docs/project-configuration.md#projects-and-templates).
 */
function keepStanza(
  stanza: ProjectStanza,
  input: ValidationInput,
  jobExists: (name: string) => boolean,
  templateExists: (name: string) => boolean,
  report: Report,
): boolean {
  const missingTemplate = stanza.templates.find((t) => !templateExists(t));
  if (missingTemplate !== undefined) {
    report(
      stanza,
      new ConfigObjectError(
        `The project template "${missingTemplate}" was not found.`,
        ErrorName.templateNotFound,
        'templates',
      ),
      stanza.kind,
      stanza.name,
    );
    return true;
  }
  for (const [pipelineName, config] of stanza.pipelines) {
    for (const job of config.jobs) {
      if (!jobExists(job.name)) {
        report(
          stanza,
          new ConfigObjectError(`Job ${job.name} not defined`, ErrorName.jobNotFound, pipelineName),
          stanza.kind,
          stanza.name,
        );
        return true;
      }
      if (job.variant !== undefined) {
        try {
          checkVariant(job.variant, input, jobExists);
        } catch (err) {
          report(stanza, err, stanza.kind, stanza.name);
          return false;
        }
      }
    }
  }
  return true;
}
