/**
 * Holds the current layout of every tenant. Layouts are built completely and then swapped in
 * with one assignment, so readers never see a half-built layout. Reconfiguration happens on
 * demand (`reconfigure()`, or a `reconfigure` request row written by `sluice reconfigure`) and
 * when polling finds that a configuration file changed on a loaded branch.
 */
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { driverOf } from '../drivers/registry';
import type { ConfigError } from './config-error';
import type { Layout, LayoutProject } from './layout';
import { buildLayout, type BuildLayoutInput } from './layout-builder';
import { connectionsFromConfig, lazySource, readTenantFile, readTenantLayoutInput } from './load-tenants';
import { addProposalSecretKeys } from './secret-check';
import type { ProposedConfig } from '../model/proposed-config';
import { BoundedMemo } from './bounded-memo';
import { tenantsChangedBy, type BranchUpdate } from './branch-update';
import { proposedLayout, type ProposedLayout, type SpeculativeLayout } from './proposed-layout';
import type { ServiceConfig } from './service';
import type { Abide, TenantFileProblem } from './tenant-file';
import { branchesToLoad } from './tenant-sources';
import { changedTenants, tenantFingerprints } from './smart-reconfigure';
import { eligibleBranches, GenerationalFileCache, type ConnectionSet } from './tenant-loader';
import { ConfigErrorRepository, type NewConfigError } from '../store/repositories/config-errors';
import { ReconfigureRequestRepository } from '../store/repositories/reconfigure-requests';
import { SystemEventRepository } from '../store/repositories/system-events';
import type { SecretsKeySource } from '../secrets/secret-data';
import { combineRedactors, type Redactor } from '../secrets/redact';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';

/** Speculative layouts whose secret values the service redactor keeps masking. */
const SPECULATIVE_REDACTORS = 256;

export interface LayoutManagerOptions {
  config: Pick<ServiceConfig, 'connections' | 'dataDir' | 'tenantConfig'>;
  knex: Knex;
  logger: Logger;
  now?: () => Date;
  uuid?: () => string;
  /** The poll's timers (src/engine/ports/clock.ts), so tests drive polling themselves; default: the system clock. */
  clock?: TimerClock;
  /** Seconds between polls; default: the smallest pollInterval of the git connections (60 without any). */
  pollInterval?: number;
  /** Projects' secrets keys (the KeyManager): secrets are decrypted at load; without it they are not checked. */
  secretKeys?: () => Promise<SecretsKeySource>;
}

export interface ReconfigureOutcome {
  tenants: string[];
  problems: TenantFileProblem[];
}

type LayoutListener = (layout: Layout) => void;

export class LayoutManager {
  private layouts: ReadonlyMap<string, Layout> = new Map();
  /** What each layout was built from, for speculative layouts (`proposedLayout`). */
  private readonly inputs = new WeakMap<Layout, BuildLayoutInput>();
  private currentAbide: Abide | undefined;
  private problems: TenantFileProblem[] = [];
  private fingerprints = new Map<string, string>(); // the tenant file's entries last read, for smart reloads
  private readonly connections: ConnectionSet;
  private readonly cache = new GenerationalFileCache();
  /** Speculative layouts of `proposedLayout`: each holds a whole tenant layout, so few are kept. */
  private readonly speculative = new BoundedMemo<SpeculativeLayout>(16);
  /** Branch tips seen by polling that moved without changing configuration (per layout). */
  private readonly knownTips = new Map<string, string>();
  private readonly now: () => Date;
  private readonly uuid: () => string;
  /** The configuration poll (src/engine/ports/periodic-task.ts). */
  private readonly poll: PeriodicTask;
  private readonly configErrors: ConfigErrorRepository;
  private readonly requests: ReconfigureRequestRepository;
  private readonly events: SystemEventRepository;
  private readonly listeners = new Set<LayoutListener>();
  private queue: Promise<unknown> = Promise.resolve();
  private redactor: { from: ReadonlyMap<string, Layout>; redactor: Redactor } | undefined;
  /** Redactors of speculative layouts, the newest last (docs/gating.md#speculative-layouts). */
  private readonly speculativeRedactors = new Set<Redactor>();

  constructor(private readonly options: LayoutManagerOptions) {
    this.connections = connectionsFromConfig(options.config);
    this.now = options.now ?? (() => new Date());
    this.uuid = options.uuid ?? randomUUID;
    const intervals = Object.values(options.config.connections).flatMap(
      (c) => driverOf(c)?.connection?.pollInterval?.(c) ?? [],
    );
    this.poll = new PeriodicTask({
      name: 'configuration poll',
      intervalMs: 1000 * (options.pollInterval ?? (intervals.length > 0 ? Math.min(...intervals) : 60)),
      tick: () => this.pollOnce(),
      onError: (err) => options.logger.error({ err }, 'configuration poll failed'),
      clock: options.clock,
      // `stop` waits for the queue of reloads itself.
      stopWaitMs: 0,
    });
    this.configErrors = new ConfigErrorRepository(options.knex);
    this.requests = new ReconfigureRequestRepository(options.knex);
    this.events = new SystemEventRepository(options.knex);
  }

  /** Names of the loaded tenants, in tenant-file order. */
  tenantNames(): string[] {
    return [...this.layouts.keys()];
  }

  /** The current layout of a tenant. */
  layout(tenant: string): Layout | undefined {
    return this.layouts.get(tenant);
  }

  /**
   * The layout `ref` (a branch or change ref of `project`) would run with, built from the same
   * inputs as `layout` (a layout this manager built) with the ref's proposed configuration.
   */
  async proposedLayout(layout: Layout, project: LayoutProject, ref: string): Promise<ProposedLayout> {
    const input = this.inputs.get(layout);
    const connection = this.connections.git.get(project.connectionName);
    if (input === undefined || connection === undefined) {
      throw new Error(
        `layout ${layout.uuid} of tenant ${layout.tenantName} has no git inputs for ${project.canonicalName}`,
      );
    }
    return proposedLayout({
      layout,
      input,
      project,
      connection,
      ref,
      scratchDir: path.join(this.options.config.dataDir, 'proposed-config'),
      uuid: this.uuid(),
      now: this.now(),
      memo: (key, build) => this.speculative.get(key, build),
    });
  }

  /** What a layout this manager built was built from (speculative layouts start from it). */
  inputOf(layout: Layout): BuildLayoutInput | undefined {
    return this.inputs.get(layout);
  }

  /**
   * Sluice merged into a branch: the tenants whose configuration that changes are reloaded now,
   * before the update is announced (src/config/branch-update.ts); resolves with their names.
   */
  async reconfigureForUpdate(update: BranchUpdate): Promise<string[]> {
    const tenants = await tenantsChangedBy(
      this.layouts.values(),
      (l) => this.inputs.get(l),
      this.connections.git,
      update,
    );
    if (tenants.length > 0) {
      await this.reconfigure(tenants);
    }
    return tenants;
  }

  /**
   * Branch updates the engine is about to act on (src/engine/ports/configuration.ts): the tenant is
   * reloaded first when they change its configuration; true when it was.
   */
  async branchesUpdated(tenant: string, updates: readonly BranchUpdate[]): Promise<boolean> {
    const layouts = [this.layouts.get(tenant)].filter((layout) => layout !== undefined);
    try {
      for (const update of layouts.length === 0 ? [] : updates) {
        if ((await tenantsChangedBy(layouts, (l) => this.inputs.get(l), this.connections.git, update)).length > 0) {
          await this.reconfigure([tenant]);
          return true;
        }
      }
    } catch (err) {
      // An unreadable repository must not stop the tenant: its events run with the current layout.
      this.options.logger.warn({ err, tenant }, 'cannot check branch updates for configuration changes');
    }
    return false;
  }

  /**
   * Speculative merges the engine is about to act on (src/engine/ports/configuration.ts): the
   * secrets keys of projects whose proposed files hold encrypted values join the keys of the
   * tenant's layout, which its speculative layouts decrypt with (a project's first secret).
   */
  async proposalsMerged(tenant: string, proposed: readonly ProposedConfig[]): Promise<void> {
    const layout = this.layouts.get(tenant);
    const keys = layout === undefined ? undefined : this.inputs.get(layout)?.secretKeys;
    const open = this.options.secretKeys;
    if (keys instanceof Map && open !== undefined) {
      await addProposalSecretKeys(keys, proposed, lazySource(open));
    }
  }

  /** The tenant file's global objects (authorization rules, global semaphores, api-root). */
  abide(): Abide | undefined {
    return this.currentAbide;
  }

  /** Problems found in the tenant file by the last full load. */
  tenantFileProblems(): readonly TenantFileProblem[] {
    return this.problems;
  }

  /**
   * Masks the decrypted secret values of every loaded tenant (API responses, events). Rebuilt
   * when a layout changes; inactive while no secret is loaded.
   */
  secretRedactor(): Redactor {
    if (this.redactor === undefined || this.redactor.from !== this.layouts) {
      const layouts = [...this.layouts.values()];
      this.redactor = {
        from: this.layouts,
        redactor: combineRedactors([...layouts.flatMap((l) => l.secretRedactor ?? []), ...this.speculativeRedactors]),
      };
    }
    return this.redactor.redactor;
  }

  /**
   * Mask the secret values of a speculative layout too, values that exist only in a proposal
   * included: they stay masked after a reconfiguration (builds ran with them), for the last
   * SPECULATIVE_REDACTORS layouts built.
   */
  addSpeculativeRedactor(redactor: Redactor): void {
    this.speculativeRedactors.delete(redactor);
    this.speculativeRedactors.add(redactor);
    if (this.speculativeRedactors.size > SPECULATIVE_REDACTORS) {
      const [oldest] = this.speculativeRedactors;
      this.speculativeRedactors.delete(oldest);
    }
    this.redactor = undefined;
  }

  /** Call `listener` with every new layout; returns an unsubscribe function. */
  onLayout(listener: LayoutListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Load every tenant, then poll for changes until `stop()`. */
  async start(): Promise<void> {
    await this.reconfigure();
    this.poll.start();
  }

  async stop(): Promise<void> {
    await this.poll.stop();
    await this.queue.catch(() => undefined);
  }

  /**
   * Reload tenants. Without `tenants` the tenant file is re-read and every tenant reloaded
   * (tenants gone from the file are dropped); with names, only those tenants are reloaded.
   * Calls are serialized.
   */
  reconfigure(tenants?: readonly string[], options: { smart?: boolean } = {}): Promise<ReconfigureOutcome> {
    const work = this.queue.then(() => this.doReconfigure(tenants, options.smart === true));
    this.queue = work.catch(() => undefined);
    return work;
  }

  /** One polling pass: pending reconfigure requests, then changed configuration files. */
  pollOnce(): Promise<void> {
    const work = this.queue.then(async () => {
      const requests = await this.requests.claimPending(this.now());
      const named = [...new Set(requests.flatMap((r) => (r.tenant === undefined ? [] : [r.tenant])))];
      if (requests.some((r) => r.tenant === undefined && r.smart !== true)) {
        await this.doReconfigure(undefined);
      } else {
        if (requests.some((r) => r.smart === true)) {
          await this.doReconfigure(undefined, true);
        }
        if (named.length > 0) {
          await this.doReconfigure(named);
        }
      }
      const changed = await this.tenantsWithChangedConfig();
      if (changed.length > 0) {
        await this.doReconfigure(changed);
      }
    });
    this.queue = work.catch(() => undefined);
    return work;
  }

  private async doReconfigure(tenants: readonly string[] | undefined, smart = false): Promise<ReconfigureOutcome> {
    const everyTenant = tenants === undefined;
    let abide = this.currentAbide;
    if (tenants === undefined || abide === undefined) {
      const parsed = await this.readTenantFile();
      abide = parsed.abide;
      this.problems = parsed.problems;
      const before = this.fingerprints;
      this.fingerprints = tenantFingerprints(abide, parsed.problems);
      tenants = smart && everyTenant ? changedTenants(before, this.fingerprints) : tenants;
      for (const p of parsed.problems.filter((x) => x.tenant === undefined)) {
        this.options.logger.error({ line: p.line }, `tenant file: ${p.message}`);
      }
    }
    const wanted = abide.tenants.filter((t) => tenants === undefined || tenants.includes(t.name));
    if (tenants === undefined) {
      // A full reload touches every loaded branch: snapshots it does not use are dropped (a smart one keeps them).
      this.cache.rotate();
    }
    const built: Layout[] = [];
    for (const tenant of wanted) {
      const input = await readTenantLayoutInput(tenant, abide, this.problems, this.connections, {
        uuid: this.uuid,
        now: this.now,
        cache: this.cache,
        secretKeys: this.options.secretKeys,
      });
      const layout = await buildLayout(input);
      this.inputs.set(layout, input);
      built.push(layout);
    }
    const next = new Map<string, Layout>();
    for (const tenant of abide.tenants) {
      const fresh = built.find((l) => l.tenantName === tenant.name);
      const old = this.layouts.get(tenant.name);
      if (fresh) {
        next.set(tenant.name, fresh);
      } else if (old) {
        next.set(tenant.name, old);
      }
    }
    // The swap: one assignment of a fully built map.
    this.layouts = next;
    this.currentAbide = abide;
    if (everyTenant) {
      await this.configErrors.deleteTenantsExcept([...next.keys()]);
    }
    for (const layout of built) {
      await this.persist(layout);
      for (const listener of this.listeners) {
        listener(layout);
      }
    }
    return { tenants: built.map((l) => l.tenantName), problems: this.problems };
  }

  private async readTenantFile(): Promise<ReturnType<typeof readTenantFile>> {
    const file = this.options.config.tenantConfig;
    if (file === undefined) {
      return {
        abide: { tenants: [], authorizationRules: [], globalSemaphores: new Map(), roles: new Map() },
        problems: [],
      };
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      this.options.logger.error({ err, file }, 'cannot read the tenant file');
      if (this.currentAbide !== undefined) {
        return { abide: this.currentAbide, problems: this.problems };
      }
      return {
        abide: { tenants: [], authorizationRules: [], globalSemaphores: new Map(), roles: new Map() },
        problems: [{ message: `cannot read the tenant file ${file}` }],
      };
    }
    return readTenantFile(text, this.connections);
  }

  private async persist(layout: Layout): Promise<void> {
    const { changed } = await this.configErrors.replace(layout.tenantName, layout.errors.map(toRow));
    const at = this.now();
    const errors = layout.errors.filter((e) => e.severity === 'error').length;
    const warnings = layout.errors.length - errors;
    await this.events.record({
      tenant: layout.tenantName,
      eventType: 'reconfigured',
      eventTime: at,
      description: `Tenant ${layout.tenantName} reconfigured (layout ${layout.uuid})`,
      data: { layout_uuid: layout.uuid, errors, warnings },
    });
    if (changed) {
      await this.events.record({
        tenant: layout.tenantName,
        eventType: 'config-errors-changed',
        eventTime: at,
        description: `Configuration errors of tenant ${layout.tenantName} changed: ${errors} error(s), ${warnings} warning(s)`,
        data: { errors, warnings },
      });
    }
    this.options.logger.info(
      { tenant: layout.tenantName, layout: layout.uuid, errors, warnings },
      'tenant layout loaded',
    );
  }

  /** Tenants where a loaded branch moved (or appeared/disappeared) and its configuration files differ. */
  private async tenantsWithChangedConfig(): Promise<string[]> {
    const changed: string[] = [];
    for (const [tenantName, layout] of this.layouts) {
      if (await this.layoutIsStale(layout)) {
        changed.push(tenantName);
      }
    }
    return changed;
  }

  private async layoutIsStale(layout: Layout): Promise<boolean> {
    for (const tpc of layout.tenant.projects) {
      const connection = this.connections.git.get(tpc.connectionName);
      if (connection === undefined) {
        continue;
      }
      const project = [...layout.projects.values()].find(
        (p) => p.connectionName === tpc.connectionName && (p.name === tpc.name || p.canonicalName === tpc.name),
      );
      if (project === undefined) {
        continue;
      }
      try {
        await connection.refresh(project.name);
        const refs = await connection.refs(project.name);
        const tips = new Map(refs.branches.map((b) => [b.name, b.sha]));
        for (const branch of project.branches) {
          const tipKey = `${layout.uuid}\u0000${project.canonicalName}\u0000${branch}`;
          const oldSha = this.knownTips.get(tipKey) ?? project.branchShas[branch];
          const newSha = tips.get(branch);
          if (newSha === undefined) {
            return true;
          }
          if (newSha !== oldSha && tpc.include.size > 0) {
            const before = await connection
              .readConfigFiles(project.name, oldSha, tpc.extraConfigPaths)
              .catch(() => undefined);
            const after = await connection.readConfigFiles(project.name, newSha, tpc.extraConfigPaths);
            if (before === undefined || JSON.stringify(before) !== JSON.stringify(after)) {
              return true;
            }
            // Same configuration: remember the new tip so the next poll compares against it.
            this.knownTips.set(tipKey, newSha);
          }
        }
        if (!tpc.trusted) {
          // Branch protection and locks are read again: a branch locked or unprotected since the
          // load leaves the tenant, one unlocked or protected joins it.
          const eligible = await eligibleBranches(
            connection,
            tpc,
            layout.tenant,
            refs.branches.map((b) => b.name),
          );
          const loadable = branchesToLoad(tpc, eligible.names);
          if (
            loadable.some((b) => !project.branches.includes(b)) ||
            project.branches.some((b) => !loadable.includes(b))
          ) {
            return true;
          }
        }
      } catch (err) {
        this.options.logger.warn({ err, project: project.name }, 'cannot poll project for configuration changes');
      }
    }
    return false;
  }
}

function toRow(e: ConfigError): NewConfigError {
  return {
    keyHash: e.keyHash,
    project: e.sourceContext?.projectName ?? null,
    projectCanonicalName: e.sourceContext?.projectCanonicalName ?? null,
    connectionName: e.sourceContext?.connectionName ?? null,
    branch: e.sourceContext?.branch ?? null,
    path: e.sourceContext?.path ?? null,
    line: e.line ?? null,
    severity: e.severity,
    name: e.name,
    error: e.error,
    shortError: e.shortError,
  };
}
