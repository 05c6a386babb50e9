/**
 * Builds a tenant layout from the configuration files of its projects
 * (docs/project-configuration.md#configuration-files, docs/project-configuration.md#layout-assembly): files are parsed
 * per project-branch in load order, objects are added class by class with the duplicate-definition rules, then cross
 * references are validated. Every bad object is dropped with a config error; nothing here throws for user errors.
 */
import {
  ConfigObjectError,
  ErrorCollector,
  ErrorName,
  type ConfigError,
  type ErrorLocation,
  type SourceContext,
  type SourceMark,
} from './config-error';
import type {
  Flavor,
  Image,
  JobVariant,
  Label,
  Layout,
  Nodeset,
  Pipeline,
  ProjectStanza,
  Provider,
  Queue,
  Secret,
  Section,
  Semaphore,
} from './layout';
import type { ParseContext } from './parse-context';
import {
  parseFlavor,
  parseImage,
  parseLabel,
  parseProvider,
  parseSection,
  type ProviderDefinition,
} from './parse-launcher';
import { parseJob } from './parse-job';
import { parseQueue, parseSecret, parseSemaphore } from './parse-misc';
import { parseNodeset, sameNodeset } from './parse-nodeset';
import { parsePipeline } from './parse-pipeline';
import { parseProject, parseProjectTemplate } from './parse-project';
import { ProjectResolver } from './project-resolver';
import { flattenProvider } from './provider-flatten';
import type { Abide, TenantConfig } from './tenant-file';
import { validateLayout, type OriginOf } from './layout-validation';
import { keyLines, type ConfigItem } from './yaml-source';
import { addUnique } from './duplicate-definitions';
import {
  CLASS_ORDER,
  collectConfigItems,
  type ItemClass,
  type LoadedProject,
  type PendingItem,
} from './layout-collect';
import { projectRecords } from './layout-projects';
import { BUILTIN_NOOP } from './builtin-jobs';
import { checkSecretDecrypts, type SecretKeys } from './secret-check';
import { checkConfigureProjects } from './configure-projects';
import { createRedactor, secretStrings } from '../secrets/redact';
import { runSteps, runStepsSliced, type Steps } from './time-slice';

export type { LoadedProject } from './layout-collect';

export interface BuildLayoutInput {
  uuid: string;
  now: Date;
  tenant: TenantConfig;
  abide: Pick<Abide, 'globalSemaphores'>;
  /** Connection name -> driver. */
  connections: Readonly<Record<string, string>>;
  projects: LoadedProject[];
  /** Errors found before parsing (unreadable repositories, tenant-file problems). */
  initialErrors: ConfigError[];
  /**
   * Private secrets keys of the projects whose files hold encrypted values (see
   * `loadSecretKeys`). Without it encrypted secrets are not checked (`validate-config`
   * without a database).
   */
  secretKeys?: SecretKeys;
}

/** Where a parsed object came from, for later error messages. */
export interface Origin {
  context: SourceContext;
  mark: SourceMark;
  kind: string;
  name?: string;
  /** The object's YAML body; `keyLines(body)` gives attribute lines when an error needs them. */
  body: unknown;
}

/**
 * Build the layout of one tenant in slices that give the event loop back every few milliseconds:
 * a tenant of thousands of jobs takes seconds of CPU, during which the process must keep answering
 * (docs/operations.md#configuration-reloads).
 */
export function buildLayout(input: BuildLayoutInput): Promise<Layout> {
  return runStepsSliced(new LayoutBuilder(input).build());
}

/** The same layout in one go, for callers that cannot wait (tests, small in-memory layouts). */
export function buildLayoutSync(input: BuildLayoutInput): Layout {
  return runSteps(new LayoutBuilder(input).build());
}

class LayoutBuilder {
  private readonly errors = new ErrorCollector();
  private readonly origins = new WeakMap<object, Origin>();
  private readonly resolver: ProjectResolver;
  private readonly pipelines = new Map<string, Pipeline>();
  private readonly jobs = new Map<string, JobVariant[]>();
  private readonly templates = new Map<string, ProjectStanza[]>();
  private readonly projectStanzas: ProjectStanza[] = [];
  private readonly nodesets = new Map<string, Nodeset>();
  private readonly semaphores = new Map<string, Semaphore>();
  private readonly secrets = new Map<string, Secret>();
  /** Secrets dropped because a value did not decrypt (jobs using them get their own error). */
  private readonly undecryptableSecrets = new Set<string>();
  /** Every decrypted string value, for the layout's redactor. */
  private readonly secretValues: string[] = [];
  private readonly queues = new Map<string, Queue>();
  private readonly images = new Map<string, Image>();
  private readonly flavors = new Map<string, Flavor>();
  private readonly labels = new Map<string, Label>();
  private readonly sections = new Map<string, Section>();
  private readonly providerDefs = new Map<string, ProviderDefinition>();

  private readonly input: BuildLayoutInput;

  constructor(input: BuildLayoutInput) {
    const checked = checkConfigureProjects(input.projects);
    this.input = { ...input, projects: checked.projects };
    for (const e of [...input.initialErrors, ...checked.errors]) {
      this.errors.add(e);
    }
    this.resolver = new ProjectResolver(
      this.input.projects.map((p) => ({
        name: p.name,
        canonicalName: p.canonicalName,
        connectionName: p.connectionName,
        trusted: p.trusted,
      })),
    );
  }

  /** Checkpoints after each file, item, job and stanza (time-slice.ts). */
  *build(): Steps<Layout> {
    const pending = yield* collectConfigItems(this.input, this.errors, this.resolver);
    for (const cls of CLASS_ORDER) {
      for (const p of pending.get(cls) ?? []) {
        this.addItem(cls, p);
        yield;
      }
    }
    const originOf: OriginOf = (o) => this.origins.get(o);
    const providers = this.flattenProviders();
    const validated = yield* validateLayout({
      tenant: this.input.tenant,
      globalSemaphores: this.input.abide.globalSemaphores,
      pipelines: this.pipelines,
      jobs: this.jobs,
      templates: this.templates,
      projectStanzas: this.projectStanzas,
      nodesets: this.nodesets,
      semaphores: this.semaphores,
      secrets: this.secrets,
      undecryptableSecrets: this.undecryptableSecrets,
      labels: this.labels,
      images: this.images,
      flavors: this.flavors,
      resolver: this.resolver,
      errors: this.errors,
      originOf,
    });
    const projects = projectRecords(this.input.projects, validated.projectConfigs, this.templates);
    const jobs = new Map<string, readonly JobVariant[]>([[BUILTIN_NOOP.name, [BUILTIN_NOOP]]]);
    for (const [name, variants] of validated.jobs) {
      if (name !== BUILTIN_NOOP.name) {
        jobs.set(name, variants);
      }
    }
    const layout: Layout = {
      uuid: this.input.uuid,
      tenantName: this.input.tenant.name,
      tenant: this.input.tenant,
      loadedAt: this.input.now,
      projects,
      pipelines: validated.pipelines,
      jobs,
      projectTemplates: validated.templates,
      projectConfigs: validated.projectConfigs,
      nodesets: this.nodesets,
      semaphores: validated.semaphores,
      secrets: this.secrets,
      queues: this.queues,
      images: this.images,
      flavors: this.flavors,
      labels: this.labels,
      sections: this.sections,
      providers,
      errors: this.errors.list(),
      secretRedactor: this.input.secretKeys === undefined ? undefined : createRedactor(this.secretValues),
    };
    return Object.freeze(layout);
  }

  private addItem(cls: ItemClass, { item, ctx }: PendingItem): void {
    const name =
      typeof (item.body as { name?: unknown } | null)?.name === 'string'
        ? String((item.body as { name: string }).name)
        : undefined;
    // Errors about secrets name the line but never quote the stanza (its ciphertext).
    const location: ErrorLocation =
      cls === 'secret'
        ? { context: ctx.sourceContext, stanza: { kind: cls, name }, attributeLine: item.mark.line }
        : { context: ctx.sourceContext, mark: item.mark, stanza: { kind: cls, name } };
    try {
      this.addParsed(cls, item, ctx, location);
    } catch (err) {
      this.errors.reportException(location, err, keyLines(item.body));
    }
    for (const warning of ctx.warnings) {
      this.errors.reportException(location, warning, keyLines(item.body));
    }
  }

  private remember<T extends object>(obj: T, item: ConfigItem, ctx: ParseContext, kind: string, name?: string): T {
    this.origins.set(obj, { context: ctx.sourceContext, mark: item.mark, kind, name, body: item.body });
    return obj;
  }

  private addParsed(cls: ItemClass, item: ConfigItem, ctx: ParseContext, location: ErrorLocation): void {
    switch (cls) {
      case 'pipeline': {
        const pipeline = parsePipeline(item.body, ctx);
        if (this.pipelines.has(pipeline.name)) {
          throw new ConfigObjectError(`Pipeline ${pipeline.name} is already defined`, ErrorName.unknown, 'name');
        }
        this.pipelines.set(pipeline.name, this.remember(pipeline, item, ctx, 'pipeline', pipeline.name));
        return;
      }
      case 'job': {
        const parsed = parseJob(item.body, ctx);
        this.addJob(this.remember({ ...parsed, line: item.mark.line }, item, ctx, 'job', parsed.name), ctx);
        return;
      }
      case 'project-template': {
        const template = parseProjectTemplate(item.body, ctx, item.mark.line);
        const existing = this.templates.get(template.name) ?? [];
        if (
          existing.length > 0 &&
          existing[0].sourceContext.projectCanonicalName !== ctx.sourceContext.projectCanonicalName
        ) {
          throw new ConfigObjectError(
            `Project template ${template.name} is already defined in project ${existing[0].sourceContext.projectName}`,
            ErrorName.unknown,
            'name',
          );
        }
        existing.push(this.remember(template, item, ctx, 'project-template', template.name));
        this.templates.set(template.name, existing);
        return;
      }
      case 'project': {
        const stanza = parseProject(item.body, ctx, item.mark.line);
        location.stanza = { kind: 'project', name: stanza.name };
        this.projectStanzas.push(this.remember(stanza, item, ctx, 'project', stanza.name));
        return;
      }
      case 'nodeset': {
        const nodeset = parseNodeset(item.body, ctx, false);
        addUnique('Nodeset', this.nodesets, nodeset, ctx, sameNodeset);
        this.remember(nodeset, item, ctx, 'nodeset', nodeset.name);
        return;
      }
      case 'secret': {
        const secret = parseSecret(item.body, ctx);
        if (this.input.secretKeys !== undefined) {
          try {
            this.secretValues.push(...secretStrings(checkSecretDecrypts(secret, this.input.secretKeys)));
          } catch (err) {
            this.undecryptableSecrets.add(secret.name);
            throw err;
          }
        }
        addUnique(
          'Secret',
          this.secrets,
          secret,
          ctx,
          (a, b) => JSON.stringify([a.data, a.oidc]) === JSON.stringify([b.data, b.oidc]),
        );
        return;
      }
      case 'semaphore': {
        const semaphore = parseSemaphore(item.body, ctx);
        if (this.input.tenant.semaphores.includes(semaphore.name)) {
          throw new ConfigObjectError(
            `Semaphore ${semaphore.name} shadows a global semaphore and will be ignored`,
            ErrorName.unknown,
            'name',
          );
        }
        addUnique('Semaphore', this.semaphores, semaphore, ctx, (a, b) => a.max === b.max);
        return;
      }
      case 'queue': {
        const queue = parseQueue(item.body, ctx);
        addUnique(
          'Queue',
          this.queues,
          queue,
          ctx,
          (a, b) =>
            a.perBranch === b.perBranch &&
            a.allowCircularDependencies === b.allowCircularDependencies &&
            a.dependenciesByTopic === b.dependenciesByTopic,
        );
        return;
      }
      case 'image':
        addUnique(
          'Image',
          this.images,
          parseImage(item.body, ctx),
          ctx,
          (a, b) => a.type === b.type && a.description === b.description,
        );
        return;
      case 'flavor':
        addUnique('Flavor', this.flavors, parseFlavor(item.body, ctx), ctx, (a, b) => a.description === b.description);
        return;
      case 'label': {
        const label = this.remember(parseLabel(item.body, ctx), item, ctx, 'label');
        addUnique(
          'Label',
          this.labels,
          label,
          ctx,
          (a, b) => JSON.stringify({ ...a, sourceContext: null }) === JSON.stringify({ ...b, sourceContext: null }),
        );
        return;
      }
      case 'section':
        addUnique(
          'Section',
          this.sections,
          parseSection(item.body, ctx),
          ctx,
          (a, b) => JSON.stringify(a.config) === JSON.stringify(b.config),
        );
        return;
      case 'provider': {
        const def = parseProvider(item.body, ctx);
        addUnique(
          'Provider',
          this.providerDefs,
          def,
          ctx,
          (a, b) => JSON.stringify(a.config) === JSON.stringify(b.config),
        );
        this.remember(def, item, ctx, 'provider', def.name);
        return;
      }
    }
  }

  /** All variants of a job come from one project, unless the later project shadows the earlier. */
  private addJob(variant: JobVariant, ctx: ParseContext): void {
    const existing = this.jobs.get(variant.name);
    if (existing && existing.length > 0) {
      const first = existing[0].sourceContext;
      if (first.projectCanonicalName !== variant.sourceContext.projectCanonicalName) {
        const shadowed = ctx.tpc.shadow.some((s) => {
          const p = this.resolver.find(s);
          return p !== undefined && p.canonicalName === first.projectCanonicalName;
        });
        if (shadowed) {
          return;
        }
        throw new ConfigObjectError(
          `Job ${variant.name} in ${variant.sourceContext.projectName} is not permitted to shadow job ${variant.name} in ${first.projectName}`,
          ErrorName.unknown,
          'name',
        );
      }
      existing.push(variant);
      return;
    }
    this.jobs.set(variant.name, [variant]);
  }

  private flattenProviders(): Map<string, Provider> {
    for (const label of [...this.labels.values()]) {
      if (!this.images.has(label.image) || !this.flavors.has(label.flavor)) {
        const missing = !this.images.has(label.image) ? `image "${label.image}"` : `flavor "${label.flavor}"`;
        const origin = this.origins.get(label);
        this.errors.report(
          {
            context: label.sourceContext,
            mark: origin?.mark,
            stanza: { kind: 'label', name: label.name },
            attribute: !this.images.has(label.image) ? 'image' : 'flavor',
            attributeLine: keyLines(origin?.body)[!this.images.has(label.image) ? 'image' : 'flavor'],
          },
          `The label "${label.name}" references an unknown ${missing}`,
          ErrorName.unknown,
        );
        this.labels.delete(label.name);
      }
    }
    const providers = new Map<string, Provider>();
    for (const def of this.providerDefs.values()) {
      const origin = this.origins.get(def);
      try {
        providers.set(
          def.name,
          flattenProvider(def, {
            sections: this.sections,
            images: this.images,
            flavors: this.flavors,
            labels: this.labels,
          }),
        );
      } catch (err) {
        this.errors.reportException(
          { context: origin?.context, mark: origin?.mark, stanza: { kind: 'provider', name: def.name } },
          err,
          keyLines(origin?.body),
        );
      }
    }
    return providers;
  }
}
