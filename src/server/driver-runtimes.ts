/**
 * The drivers' runtimes of the gating roles (docs/development.md#drivers): one per driver that
 * has configured connections, and the engine's change source, merger and reporter that route a
 * project's work to the runtime of its connection's driver.
 */
import { refChange } from '../model/changes';
import type { ChangeSource } from '../engine/ports/change-source';
import type { MergerGateway } from '../engine/ports/merger';
import { ReportNotSent, sendFailure, throwIfNotSent, type ChangeReporter } from '../engine/ports/reporter';
import type { ConnectionSettings, DriverContext, DriverRuntime } from '../drivers/driver';
import { parsedUrl, type ChangeOfUrl } from '../drivers/depends-on';
import { DRIVERS, driverOf } from '../drivers/registry';
import type { GitProjects } from '../sources/git-projects';

/** The runtimes of this process, by driver name. */
export interface DriverRuntimes {
  readonly byDriver: ReadonlyMap<string, DriverRuntime>;
  /** The runtime of a connection's driver. */
  ofConnection(connection: string): DriverRuntime | undefined;
  /** Something was received for a connection (a stored webhook delivery): every intake looks now. */
  wake(): void;
  /** Resolves when nothing received waits to become trigger events. */
  idle(): Promise<void>;
}

/** Start nothing: build the runtime of every driver with connections in `connections`. */
export function createDriverRuntimes(
  connections: Readonly<Record<string, ConnectionSettings>>,
  context: Omit<DriverContext<ConnectionSettings>, 'connections' | 'changeOfUrl'>,
): DriverRuntimes {
  const changeOfUrl = changeOfUrlOnAny(connections);
  const byDriver = new Map<string, DriverRuntime>();
  const driverOfConnection = new Map<string, string>();
  for (const driver of DRIVERS) {
    const own = new Map(Object.entries(connections).filter(([, settings]) => settings.driver === driver.name));
    own.forEach((_settings, name) => driverOfConnection.set(name, driver.name));
    if (driver.runtime !== undefined && own.size > 0) {
      byDriver.set(driver.name, driver.runtime({ ...context, connections: own, changeOfUrl }));
    }
  }
  const runtimes = [...byDriver.values()];
  return {
    byDriver,
    ofConnection: (connection) => byDriver.get(driverOfConnection.get(connection) ?? ''),
    wake: () => runtimes.forEach((runtime) => runtime.wake?.()),
    idle: async () => {
      await Promise.all(runtimes.map((runtime) => runtime.idle?.()));
    },
  };
}

/**
 * `Depends-On:` URLs through every configured connection (src/drivers/depends-on.ts): the first
 * whose driver says the URL is its own names the change, as the reference asks each source.
 */
export function changeOfUrlOnAny(connections: Readonly<Record<string, ConnectionSettings>>): ChangeOfUrl {
  const owners = Object.entries(connections).flatMap(([name, settings]) => {
    const spec = driverOf(settings)?.connection;
    return spec?.changeOfUrl === undefined ? [] : [(url: URL) => spec.changeOfUrl?.(name, settings, url) ?? null];
  });
  return (text) => {
    const url = parsedUrl(text);
    for (const owner of url === null ? [] : owners) {
      const named = owner(url as URL);
      if (named !== null) {
        return named;
      }
    }
    return null;
  };
}

/**
 * The engine's change source: a project's changes come from the runtime of its connection's
 * driver. A project no loaded tenant has is unknown (no change; a ref is taken as given).
 */
export function routingChangeSource(projects: GitProjects, runtimes: DriverRuntimes): ChangeSource {
  const sourceOf = (project: string): ChangeSource | undefined => {
    const location = projects.locate(project);
    return location === null ? undefined : runtimes.ofConnection(location.connection)?.changes;
  };
  return {
    getChange: async (project, number, patchset) =>
      (await sourceOf(project)?.getChange(project, number, patchset)) ?? null,
    getRef: async (project, ref, oldrev, newrev) =>
      (await sourceOf(project)?.getRef(project, ref, oldrev, newrev)) ?? refChange(project, ref, oldrev, newrev),
    openChanges: async (project) => (await sourceOf(project)?.openChanges(project)) ?? [],
    changesDependingOn: async (change, candidates) => {
      const bySource = new Map<ChangeSource, string[]>();
      for (const candidate of candidates) {
        const source = sourceOf(candidate);
        if (source !== undefined) {
          bySource.set(source, [...(bySource.get(source) ?? []), candidate]);
        }
      }
      const found = [];
      for (const [source, own] of bySource) {
        found.push(...(await source.changesDependingOn(change, own)));
      }
      return found;
    },
    changesInTopic: async (change) => (await sourceOf(change.project)?.changesInTopic?.(change)) ?? [],
  };
}

/**
 * The engine's merger: speculative merges are the shared git merger's; a change is merged into
 * its branch by its connection's driver when the driver does it itself, else by the git merger,
 * whose pushes the driver hears of (`merged`).
 */
export function routingMerger(
  projects: GitProjects,
  runtimes: DriverRuntimes,
  git: (
    onMerged: (connection: string, project: string, branch: string, newrev: string, oldrev: string) => void,
  ) => MergerGateway,
): MergerGateway {
  const merger = git((connection, project, branch, newrev, oldrev) =>
    runtimes.ofConnection(connection)?.merged?.(connection, project, branch, newrev, oldrev),
  );
  return {
    prepare: (items, options) => merger.prepare(items, options),
    branchesContaining: (item) => merger.branchesContaining(item),
    mergeToBranch: async (item) => {
      const location = projects.locate(item.project);
      const runtime = location === null ? undefined : runtimes.ofConnection(location.connection);
      return (await runtime?.mergeToBranch?.(item)) ?? merger.mergeToBranch(item);
    },
    canMergeToBranch: async (item) => {
      const location = projects.locate(item.project);
      const runtime = location === null ? undefined : runtimes.ofConnection(location.connection);
      // A driver that merges itself is asked itself, where it can tell (docs/gating.md#dependency-cycles).
      if (runtime?.mergeToBranch !== undefined) {
        return (await runtime.canMergeToBranch?.(item)) ?? null;
      }
      return (await merger.canMergeToBranch?.(item)) ?? null;
    },
  };
}

/**
 * The engine's reporter: each reporter of a report goes to its driver's runtime, once for each
 * change of the item (every change of a dependency cycle is reported, as in the reference); a
 * driver skips the changes of other connections. Undefined when no driver reports.
 */
export function routingReporter(runtimes: DriverRuntimes): ChangeReporter | undefined {
  const reporting = [...runtimes.byDriver].filter(([, runtime]) => runtime.reporter !== undefined);
  if (reporting.length === 0) {
    return undefined;
  }
  return {
    report: async (report) => {
      const changes = [...(report.otherChanges ?? []), report.change];
      // A driver that fails does not keep the others from reporting; the failures are thrown together.
      const failures: string[] = [];
      for (const [driver, runtime] of reporting) {
        const reporters = report.reporters.filter((reporter) => reporter.driver === driver);
        for (const change of reporters.length > 0 ? changes : []) {
          await runtime.reporter?.report({ ...report, change, reporters }).catch((error: unknown) => {
            failures.push(...(error instanceof ReportNotSent ? error.failures : [sendFailure(driver, error)]));
          });
        }
      }
      throwIfNotSent(failures);
    },
  };
}
