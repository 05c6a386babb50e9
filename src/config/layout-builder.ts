/**
 * Builds a tenant layout from the configuration files of its projects (engine.md §1.1, §1.13):
 * files are parsed per project-branch in load order, objects are added class by class with the
 * duplicate-definition rules, then cross references are validated. Every bad object is dropped
 * with a config error; nothing here throws for user errors.
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
  LayoutProject,
  Nodeset,
  Pipeline,
  ProjectStanza,
  Provider,
  Queue,
  Secret,
  Section,
  Semaphore,
} from './layout';
import type { FilePragma, ParseContext } from './parse-context';
import {
  parseFlavor,
  parseImage,
  parseLabel,
  parseProvider,
  parseSection,
  type ProviderDefinition,
} from './parse-launcher';
import { parseJob } from './parse-job';
import { parsePragma, parseQueue, parseSecret, parseSemaphore } from './parse-misc';
import { parseNodeset, sameNodeset } from './parse-nodeset';
import { parsePipeline } from './parse-pipeline';
import { parseProject, parseProjectTemplate } from './parse-project';
import { ProjectResolver } from './project-resolver';
import { flattenProvider } from './provider-flatten';
import type { Abide, ConfigClass, TenantConfig, TenantProjectConfig } from './tenant-file';
import { validateLayout, type OriginOf } from './layout-validation';
import { keyLines, parseConfigFile, type ConfigItem, type ParsedConfigFile } from './yaml-source';
import { BUILTIN_NOOP } from './builtin-jobs';
import { checkSecretDecrypts, type SecretKeys } from './secret-check';
import { createRedactor, secretStrings } from '../secrets/redact';

/** A project of the tenant with the files read from each of its loaded branches. */
export interface LoadedProject {
  tpc: TenantProjectConfig;
  name: string;
  canonicalName: string;
  connectionName: string;
  trusted: boolean;
  defaultBranch: string;
  /** Loaded branches in load order (default branch first for untrusted projects). */
  branches: string[];
  branchShas: Record<string, string>;
  files: ReadonlyMap<string, ReadonlyArray<{ path: string; text: string }>>;
  /** Default locations present but ignored because an earlier one exists, per branch. */
  ignoredLocations: ReadonlyMap<string, readonly string[]>;
}

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

const CLASS_ORDER = [
  'pipeline',
  'image',
  'flavor',
  'label',
  'section',
  'provider',
  'nodeset',
  'secret',
  'job',
  'semaphore',
  'queue',
  'project-template',
  'project',
] as const;
type ItemClass = (typeof CLASS_ORDER)[number];

interface PendingItem {
  item: ConfigItem;
  ctx: ParseContext;
}

/** Build the layout of one tenant. */
export function buildLayout(input: BuildLayoutInput): Layout {
  const builder = new LayoutBuilder(input);
  return builder.build();
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
  private readonly parsedFiles = new Map<string, ParsedConfigFile>();

  constructor(private readonly input: BuildLayoutInput) {
    for (const e of input.initialErrors) {
      this.errors.add(e);
    }
    this.resolver = new ProjectResolver(
      input.projects.map((p) => ({
        name: p.name,
        canonicalName: p.canonicalName,
        connectionName: p.connectionName,
        trusted: p.trusted,
      })),
    );
  }

  build(): Layout {
    const pending = new Map<ItemClass, PendingItem[]>(CLASS_ORDER.map((c) => [c, []]));
    for (const project of this.input.projects) {
      for (const branch of project.branches) {
        this.collectBranch(project, branch, pending);
      }
    }
    for (const cls of CLASS_ORDER) {
      for (const p of pending.get(cls) ?? []) {
        this.addItem(cls, p);
      }
    }
    const originOf: OriginOf = (o) => this.origins.get(o);
    const providers = this.flattenProviders();
    const validated = validateLayout({
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
    const projects = this.projectRecords(validated.projectConfigs);
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

  /** Identical files (typically the same file on several branches) are parsed once. */
  private parse(text: string): ParsedConfigFile {
    let parsed = this.parsedFiles.get(text);
    if (parsed === undefined) {
      parsed = parseConfigFile(text);
      this.parsedFiles.set(text, parsed);
    }
    return parsed;
  }

  private contextFor(project: LoadedProject, branch: string, path: string): SourceContext {
    return {
      projectCanonicalName: project.canonicalName,
      projectName: project.name,
      connectionName: project.connectionName,
      branch,
      path,
      trusted: project.trusted,
    };
  }

  private collectBranch(project: LoadedProject, branch: string, pending: Map<ItemClass, PendingItem[]>): void {
    const files = project.files.get(branch) ?? [];
    for (const ignored of project.ignoredLocations.get(branch) ?? []) {
      const context = this.contextFor(project, branch, ignored);
      this.errors.report(
        { context },
        `Multiple project configuration locations found; "${ignored}" is ignored.`,
        ErrorName.multipleProjectConfigurations,
        'warning',
      );
    }
    for (const file of files) {
      const context = this.contextFor(project, branch, file.path);
      const parsed = this.parse(file.text);
      for (const problem of parsed.problems) {
        const mark = problem.mark ?? {
          line: problem.line ?? 1,
          endLine: problem.line ?? 1,
          snippet: file.text.split('\n')[(problem.line ?? 1) - 1] ?? '',
        };
        this.errors.report(
          { context, mark, stanza: { kind: 'configuration' }, attributeLine: problem.line },
          problem.message,
          ErrorName.syntax,
        );
      }
      let pragma: FilePragma = {};
      for (const item of parsed.items.filter((i) => i.key === 'pragma')) {
        try {
          pragma = { ...pragma, ...stripUndefined(parsePragma(item.body)) };
        } catch (err) {
          this.errors.reportException(
            { context, mark: item.mark, stanza: { kind: 'pragma' } },
            err,
            keyLines(item.body),
          );
        }
      }
      for (const item of parsed.items) {
        if (item.key === 'pragma') {
          continue;
        }
        if (!(CLASS_ORDER as readonly string[]).includes(item.key)) {
          this.errors.report(
            { context, mark: item.mark, stanza: { kind: item.key } },
            `Configuration item not recognized: "${item.key}"`,
            ErrorName.syntax,
          );
          continue;
        }
        const cls = item.key as ItemClass;
        if (!project.tpc.include.has(cls as ConfigClass)) {
          continue;
        }
        const ctx: ParseContext = {
          tenant: this.input.tenant,
          tpc: project.tpc,
          sourceContext: context,
          pragma,
          projectBranchCount: project.branches.length,
          connections: this.input.connections,
          resolveProject: (name, attribute) => this.resolver.resolve(name, attribute),
          warnings: [],
        };
        pending.get(cls)?.push({ item, ctx });
      }
    }
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
        this.addUnique('Nodeset', this.nodesets, nodeset, ctx, sameNodeset);
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
        this.addUnique(
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
        this.addUnique('Semaphore', this.semaphores, semaphore, ctx, (a, b) => a.max === b.max);
        return;
      }
      case 'queue': {
        const queue = parseQueue(item.body, ctx);
        this.addUnique(
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
        this.addUnique(
          'Image',
          this.images,
          parseImage(item.body, ctx),
          ctx,
          (a, b) => a.type === b.type && a.description === b.description,
        );
        return;
      case 'flavor':
        this.addUnique(
          'Flavor',
          this.flavors,
          parseFlavor(item.body, ctx),
          ctx,
          (a, b) => a.description === b.description,
        );
        return;
      case 'label': {
        const label = this.remember(parseLabel(item.body, ctx), item, ctx, 'label');
        this.addUnique(
          'Label',
          this.labels,
          label,
          ctx,
          (a, b) => JSON.stringify({ ...a, sourceContext: null }) === JSON.stringify({ ...b, sourceContext: null }),
        );
        return;
      }
      case 'section':
        this.addUnique(
          'Section',
          this.sections,
          parseSection(item.body, ctx),
          ctx,
          (a, b) => JSON.stringify(a.config) === JSON.stringify(b.config),
        );
        return;
      case 'provider': {
        const def = parseProvider(item.body, ctx);
        this.addUnique(
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

  /** The duplicate rules shared by nodesets, secrets, semaphores, queues and launcher objects. */
  private addUnique<T extends { name: string; sourceContext?: SourceContext }>(
    type: string,
    map: Map<string, T>,
    value: T,
    ctx: ParseContext,
    same: (a: T, b: T) => boolean,
  ): void {
    const existing = map.get(value.name);
    if (existing === undefined) {
      map.set(value.name, value);
      return;
    }
    const previous = existing.sourceContext;
    if (previous === undefined || previous.projectCanonicalName !== ctx.sourceContext.projectCanonicalName) {
      throw new ConfigObjectError(
        `${type} ${value.name} already defined in project ${previous?.projectName ?? '(tenant)'}`,
        ErrorName.unknown,
        'name',
      );
    }
    if (previous.branch === ctx.sourceContext.branch) {
      throw new ConfigObjectError(`${type} ${value.name} already defined`, ErrorName.unknown, 'name');
    }
    if (!same(existing, value)) {
      throw new ConfigObjectError(
        `${type} ${value.name} does not match existing definition in branch ${previous.branch}`,
        ErrorName.unknown,
        'name',
      );
    }
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

  private projectRecords(configs: ReadonlyMap<string, readonly ProjectStanza[]>): Map<string, LayoutProject> {
    const out = new Map<string, LayoutProject>();
    for (const p of this.input.projects) {
      const stanzas = configs.get(p.canonicalName) ?? [];
      let mergeMode: LayoutProject['metadata']['mergeMode'] | undefined;
      let defaultBranch: string | undefined;
      let queueName: string | undefined;
      for (const stanza of stanzas) {
        mergeMode = mergeMode ?? stanza.mergeMode;
        defaultBranch = defaultBranch ?? stanza.defaultBranch;
        queueName = queueName ?? stanza.queue;
        for (const t of stanza.templates) {
          queueName = queueName ?? this.templates.get(t)?.find((tpl) => tpl.queue !== undefined)?.queue;
        }
      }
      out.set(p.canonicalName, {
        name: p.name,
        canonicalName: p.canonicalName,
        connectionName: p.connectionName,
        trusted: p.trusted,
        branches: [...p.branches],
        branchShas: { ...p.branchShas },
        metadata: {
          mergeMode: mergeMode ?? 'merge-resolve',
          defaultBranch: defaultBranch ?? p.defaultBranch,
          queueName,
        },
      });
    }
    return out;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
