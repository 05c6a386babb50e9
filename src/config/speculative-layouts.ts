/**
 * Speculative layouts of items that change configuration (docs/gating.md#speculative-layouts): the
 * live layout rebuilt from the same inputs with the project-branches an item's merged state
 * proposes. As in the reference, untrusted projects' proposals take effect for the item; config
 * projects' proposals are only validated (their errors block the item) and take effect once
 * merged; pipelines, semaphores, queues and launcher objects always come from the live layout.
 *
 * Layouts are kept by the content of the proposed files, so the items of a long gate that hold the
 * same proposed configuration (every item behind a config change that changes none itself) share
 * one build.
 */
import { createHash } from 'node:crypto';
import type { ConfigError } from './config-error';
import type { Layout } from './layout';
import type { Redactor } from '../secrets/redact';
import { buildLayoutSync, type BuildLayoutInput, type LoadedProject } from './layout-builder';
import type { ConfigLocation, ProposedConfig } from '../model/proposed-config';

export interface SpeculativeBuild {
  /** The layout the item is frozen with. */
  layout: Layout;
  /**
   * Errors (severity `error`) the item is blamed for: those the live layout does not have, and, as
   * in the reference, every error in a project-branch whose configuration the item itself changes.
   */
  errors: ConfigError[];
  /** Warnings the item is blamed for, by the same rule; reported with the item, never blocking. */
  warnings: ConfigError[];
}

/** A built proposal as kept: its layout and all its problems (errors and warnings). */
interface KeptBuild {
  layout: Layout;
  problems: readonly ConfigError[];
}

/** Layouts kept per live layout: each is a whole tenant layout. */
const DEFAULT_CAPACITY = 32;

export class SpeculativeLayouts {
  private readonly cache = new Map<string, KeptBuild>();
  private readonly liveKeys: ReadonlySet<string>;
  /** Layouts built so far (the rest were found in the cache). */
  builds = 0;

  constructor(
    /** The live layout the speculative ones start from. */
    readonly live: Layout,
    private readonly input: BuildLayoutInput,
    private readonly capacity = DEFAULT_CAPACITY,
    /**
     * Told of every layout built whose secrets decrypted, so the service keeps masking values
     * that exist only in a proposal (docs/gating.md#speculative-layouts).
     */
    private readonly secretsSeen?: (redactor: Redactor) => void,
  ) {
    this.liveKeys = new Set(live.errors.map(blameKey));
  }

  /** Where a project's configuration is read; null when it loads none (or is not in the tenant). */
  location(canonicalName: string): ConfigLocation | null {
    const project = this.input.projects.find((p) => p.canonicalName === canonicalName);
    if (project === undefined || project.tpc.include.size === 0) {
      return null;
    }
    return {
      extraConfigPaths: [...project.tpc.extraConfigPaths],
      dynamicBranches: [...(project.dynamicBranches ?? [])],
    };
  }

  /**
   * The layout an item proposing `proposed` runs with, and the errors it is blamed for; `ahead`:
   * what the item ahead proposed, so the project-branches the item itself changes are known (an
   * entry of `proposed` the item ahead did not propose as it is).
   */
  resolve(proposed: readonly ProposedConfig[], ahead: readonly ProposedConfig[] = []): SpeculativeBuild {
    const effective = proposed
      .filter((entry) => this.differsFromLive(entry))
      .sort((a, b) => (a.project + '\0' + a.branch < b.project + '\0' + b.branch ? -1 : 1));
    if (effective.length === 0) {
      return { layout: this.live, errors: [], warnings: [] };
    }
    const kept = this.kept(effective);
    const aheadKeys = new Set(ahead.map(entryKey));
    const own = new Set(
      proposed.filter((entry) => !aheadKeys.has(entryKey(entry))).map((entry) => `${entry.project}\0${entry.branch}`),
    );
    const inOwn = (error: ConfigError): boolean =>
      own.has(`${error.sourceContext?.projectCanonicalName}\0${error.sourceContext?.branch}`);
    const blamed = kept.problems.filter((error) => inOwn(error) || !this.liveKeys.has(blameKey(error)));
    return {
      layout: kept.layout,
      errors: blamed.filter((error) => error.severity === 'error'),
      warnings: blamed.filter((error) => error.severity !== 'error'),
    };
  }

  private kept(effective: readonly ProposedConfig[]): KeptBuild {
    const key = createHash('sha256').update(JSON.stringify(effective)).digest('hex');
    const known = this.cache.get(key);
    if (known !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, known);
      return known;
    }
    const untrusted = effective.filter((entry) => !this.project(entry.project)?.trusted);
    const validated = this.build(effective, key);
    const layout = untrusted.length === effective.length ? validated : this.build(untrusted, `${key}-untrusted`);
    const result: KeptBuild = {
      layout: withLiveParts(layout, this.live),
      problems: validated.errors,
    };
    this.cache.set(key, result);
    if (this.cache.size > this.capacity) {
      const [oldest] = this.cache.keys();
      this.cache.delete(oldest);
    }
    return result;
  }

  private project(canonicalName: string): LoadedProject | undefined {
    return this.input.projects.find((p) => p.canonicalName === canonicalName);
  }

  /** A proposal for a loaded (or always-dynamic) branch whose files differ from the live ones. */
  private differsFromLive(entry: ProposedConfig): boolean {
    const project = this.project(entry.project);
    if (project === undefined || project.tpc.include.size === 0) {
      return false;
    }
    if (!project.branches.includes(entry.branch)) {
      return project.dynamicBranches?.includes(entry.branch) ?? false;
    }
    return JSON.stringify(project.files.get(entry.branch) ?? []) !== JSON.stringify(entry.files);
  }

  private build(entries: readonly ProposedConfig[], key: string): Layout {
    this.builds++;
    const layout = buildLayoutSync({
      ...this.input,
      uuid: `${this.live.uuid}+${key.slice(0, 16)}`,
      now: this.live.loadedAt,
      projects: this.input.projects.map((project) => withProposal(project, entries)),
    });
    if (layout.secretRedactor?.active === true) {
      this.secretsSeen?.(layout.secretRedactor);
    }
    return layout;
  }
}

/** A loaded project with the proposed files of its branches (a dynamic branch is loaded last). */
function withProposal(project: LoadedProject, entries: readonly ProposedConfig[]): LoadedProject {
  const own = entries.filter((entry) => entry.project === project.canonicalName);
  if (own.length === 0) {
    return project;
  }
  const files = new Map(project.files);
  const ignored = new Map(project.ignoredLocations);
  const branches = [...project.branches];
  for (const entry of own) {
    if (!branches.includes(entry.branch)) {
      branches.push(entry.branch);
    }
    files.set(entry.branch, entry.files);
    ignored.set(entry.branch, entry.ignoredLocations);
  }
  return { ...project, branches, files, ignoredLocations: ignored };
}

/** Objects that are never speculative come from the live layout. */
function withLiveParts(layout: Layout, live: Layout): Layout {
  return {
    ...layout,
    pipelines: live.pipelines,
    semaphores: live.semaphores,
    queues: live.queues,
    images: live.images,
    flavors: live.flavors,
    labels: live.labels,
    sections: live.sections,
    providers: live.providers,
  };
}

/**
 * What identifies an error for blame: without its line, so an error that already existed is not
 * blamed on a change that only moved it within its file.
 */
function blameKey(error: ConfigError): string {
  const context = error.sourceContext;
  return [error.name, context?.projectCanonicalName, context?.branch, context?.path, error.shortError].join('\0');
}

/** A proposed project-branch with its content. */
function entryKey(entry: ProposedConfig): string {
  return JSON.stringify([entry.project, entry.branch, entry.files, entry.ignoredLocations]);
}
