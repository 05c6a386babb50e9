/**
 * The first step of building a layout: the configuration files of every loaded project-branch are
 * parsed (identical files once), their pragmas applied, and their items sorted by class in load
 * order, each with the context it will be parsed in. Problems of the files themselves (YAML
 * syntax, unknown item kinds, ignored locations) become config errors here.
 */
import { ErrorName, type ConfigObjectError, type ErrorCollector, type SourceContext } from './config-error';
import type { FilePragma, ParseContext } from './parse-context';
import { parsePragma } from './parse-misc';
import type { ProjectResolver } from './project-resolver';
import type { TenantConfig } from './tenant-file';
import type { ConfigClass, TenantProjectConfig } from './tenant-sources';
import { keyLines, parseConfigFile, type ConfigItem, type ParsedConfigFile } from './yaml-source';
import type { Steps } from './time-slice';

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
  /**
   * Only protected branches were loaded (`exclude-unprotected-branches` on a connection that has
   * protection): the project's protected branches (sorted), loaded or not.
   */
  protectedBranches?: string[];
  /** Branches matched by `always-dynamic-branches` that are not loaded (sorted). */
  dynamicBranches?: string[];
  files: ReadonlyMap<string, ReadonlyArray<{ path: string; text: string }>>;
  /** Default locations present but ignored because an earlier one exists, per branch. */
  ignoredLocations: ReadonlyMap<string, readonly string[]>;
}

/** The order in which classes of items are added to a layout. */
export const CLASS_ORDER = [
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
export type ItemClass = (typeof CLASS_ORDER)[number];

export interface PendingItem {
  item: ConfigItem;
  ctx: ParseContext;
}

export interface CollectInput {
  tenant: TenantConfig;
  /** Connection name -> driver. */
  connections: Readonly<Record<string, string>>;
  projects: readonly LoadedProject[];
}

/** The items of every project-branch, by class, in load order; a checkpoint after each file (time-slice.ts). */
export function* collectConfigItems(
  input: CollectInput,
  errors: ErrorCollector,
  resolver: ProjectResolver,
): Steps<Map<ItemClass, PendingItem[]>> {
  const collector = new ItemCollector(input, errors, resolver);
  const pending = new Map<ItemClass, PendingItem[]>(CLASS_ORDER.map((c) => [c, []]));
  for (const project of input.projects) {
    for (const branch of project.branches) {
      yield* collector.collectBranch(project, branch, pending);
    }
  }
  return pending;
}

class ItemCollector {
  private readonly parsedFiles = new Map<string, ParsedConfigFile>();

  constructor(
    private readonly input: CollectInput,
    private readonly errors: ErrorCollector,
    private readonly resolver: ProjectResolver,
  ) {}

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

  *collectBranch(project: LoadedProject, branch: string, pending: Map<ItemClass, PendingItem[]>): Steps<void> {
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
        const location = { context, mark: item.mark, stanza: { kind: 'pragma' } };
        const warnings: ConfigObjectError[] = [];
        try {
          pragma = { ...pragma, ...stripUndefined(parsePragma(item.body, warnings)) };
        } catch (err) {
          this.errors.reportException(location, err, keyLines(item.body));
        }
        warnings.forEach((warning) => this.errors.reportException(location, warning, keyLines(item.body)));
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
      yield;
    }
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
