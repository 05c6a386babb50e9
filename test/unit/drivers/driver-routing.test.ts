/**
 * The engine's change source, merger and reporter over the drivers' runtimes
 * (src/server/driver-runtimes.ts): a project's work goes to the runtime of its connection's driver.
 */
import type { ChangeSource } from '../../../src/engine/ports/change-source';
import { ReportNotSent, type ItemReport } from '../../../src/engine/ports/reporter';
import type { DriverRuntime } from '../../../src/drivers/driver';
import { refChange, type ChangeInfo, type MergeItem } from '../../../src/model/changes';
import {
  routingChangeSource,
  routingMerger,
  routingReporter,
  type DriverRuntimes,
} from '../../../src/server/driver-runtimes';
import type { GitProjects } from '../../../src/sources/git-projects';

const PROJECTS: GitProjects = {
  locate: (canonical) => {
    const [host, ...name] = canonical.split('/');
    return host === 'unknown.example.com'
      ? null
      : { connection: host === 'github.com' ? 'hub' : 'local', name: name.join('/'), defaultBranch: 'main' };
  },
  canonicalName: (connection, name) => `${connection === 'hub' ? 'github.com' : 'git.example.com'}/${name}`,
};

function change(project: string, number: number): ChangeInfo {
  return { ...refChange(project, `refs/changes/${number}`, null, 'abc'), kind: 'change', number, patchset: '1' };
}

/** A change source answering for one driver, recording what it was asked. */
function source(driver: string, asked: string[]): ChangeSource {
  return {
    getChange: (project, number) => {
      asked.push(`${driver} getChange ${project}`);
      return Promise.resolve(change(project, number));
    },
    getRef: (project, ref, oldrev, newrev) => {
      asked.push(`${driver} getRef ${project}`);
      return Promise.resolve({ ...refChange(project, ref, oldrev, newrev), url: driver });
    },
    openChanges: (project) => {
      asked.push(`${driver} openChanges ${project}`);
      return Promise.resolve([change(project, 9)]);
    },
    changesDependingOn: (_change, projects) => {
      asked.push(`${driver} changesDependingOn ${projects.join(' ')}`);
      return Promise.resolve(projects.map((project) => change(project, 7)));
    },
  };
}

function runtimes(byDriver: Record<string, DriverRuntime>): DriverRuntimes {
  const drivers = new Map(Object.entries(byDriver));
  const connections: Record<string, string> = { hub: 'github', local: 'git' };
  return {
    byDriver: drivers,
    ofConnection: (connection) => drivers.get(connections[connection] ?? ''),
    wake: () => undefined,
    idle: () => Promise.resolve(),
  };
}

function item(project: string, number: number | null): MergeItem {
  return {
    project,
    ref: 'refs/heads/main',
    branch: 'main',
    number,
    patchset: '1',
    oldrev: null,
    newrev: null,
    connection: '',
    mergeMode: 'merge',
    buildsetUuid: 'b',
  };
}

describe('routing over the drivers', () => {
  it("asks the change source of each project's driver; an unknown project has no changes", async () => {
    const asked: string[] = [];
    const routed = routingChangeSource(
      PROJECTS,
      runtimes({
        git: { changes: source('git', asked), tasks: [] },
        github: { changes: source('github', asked), tasks: [] },
      }),
    );
    expect((await routed.getChange('github.com/org/app', 1))?.number).toBe(1);
    expect((await routed.getRef('git.example.com/org/lib', 'refs/heads/main', null, 'x')).url).toBe('git');
    expect(await routed.getChange('unknown.example.com/org/x', 1)).toBeNull();
    expect(await routed.openChanges('unknown.example.com/org/x')).toEqual([]);
    expect((await routed.getRef('unknown.example.com/org/x', 'refs/tags/v1', null, 'y')).kind).toBe('tag');
    const children = await routed.changesDependingOn(change('github.com/org/app', 1), [
      'github.com/org/a',
      'git.example.com/org/b',
      'github.com/org/c',
      'unknown.example.com/org/d',
    ]);
    expect(children.map((child) => child.project)).toEqual([
      'github.com/org/a',
      'github.com/org/c',
      'git.example.com/org/b',
    ]);
    expect(asked).toEqual([
      'github getChange github.com/org/app',
      'git getRef git.example.com/org/lib',
      'github changesDependingOn github.com/org/a github.com/org/c',
      'git changesDependingOn git.example.com/org/b',
    ]);
  });

  it('merges through the driver that merges itself, else the git merger, whose pushes the driver hears of', async () => {
    const heard: string[] = [];
    const gitMerges: string[] = [];
    const routed = routingMerger(
      PROJECTS,
      runtimes({
        github: {
          tasks: [],
          // A pull request merges through the API; a ref is left to the git merger.
          mergeToBranch: (merge) =>
            Promise.resolve(merge.number === null ? null : { merged: true as const, oldrev: null, newrev: 'api' }),
        },
        git: {
          tasks: [],
          merged: (connection, project, branch, newrev) => heard.push(`${connection} ${project} ${branch} ${newrev}`),
        },
      }),
      (onMerged) => ({
        prepare: () => Promise.resolve({ merged: true, files: [], repoState: {} }),
        branchesContaining: () => Promise.resolve([]),
        mergeToBranch: (merge) => {
          gitMerges.push(merge.project);
          onMerged(PROJECTS.locate(merge.project)?.connection ?? '', merge.project, 'main', 'pushed', 'before');
          return Promise.resolve({ merged: true, oldrev: 'before', newrev: 'pushed' });
        },
      }),
    );
    expect(await routed.mergeToBranch(item('github.com/org/app', 3))).toEqual({
      merged: true,
      oldrev: null,
      newrev: 'api',
    });
    expect(await routed.mergeToBranch(item('github.com/org/app', null))).toMatchObject({ newrev: 'pushed' });
    expect(await routed.mergeToBranch(item('git.example.com/org/lib', 4))).toMatchObject({ newrev: 'pushed' });
    expect(gitMerges).toEqual(['github.com/org/app', 'git.example.com/org/lib']);
    expect(heard).toEqual(['local git.example.com/org/lib main pushed']);
  });

  it('hands each driver the reporters of its own connections; no reporter when no driver reports', async () => {
    const got: Array<[string, string[]]> = [];
    const reporter = (driver: string): DriverRuntime['reporter'] => ({
      report: (report) => {
        got.push([driver, report.reporters.map((r) => r.connection)]);
        return Promise.resolve();
      },
    });
    expect(routingReporter(runtimes({ git: { tasks: [] } }))).toBeUndefined();
    const routed = routingReporter(
      runtimes({ github: { tasks: [], reporter: reporter('github') }, git: { tasks: [] } }),
    );
    const report: ItemReport = {
      tenant: 'acme',
      pipeline: 'check',
      phase: 'start',
      change: change('github.com/org/app', 1),
      buildsetUuid: 'b',
      message: '',
      result: null,
      jobs: [],
      reporters: [
        { connection: 'hub', driver: 'github', options: {} },
        { connection: 'hub2', driver: 'github', options: {} },
      ],
    };
    await routed?.report(report);
    await routed?.report({ ...report, reporters: [] });
    expect(got).toEqual([['github', ['hub', 'hub2']]]);
  });

  it('reports to every driver and change when one fails, then rejects naming each failure', async () => {
    const got: string[] = [];
    const reporter = (driver: string, fails: boolean): DriverRuntime['reporter'] => ({
      report: (report) => {
        got.push(`${driver} ${report.change.number}`);
        return fails ? Promise.reject(new Error(`${driver} is down`)) : Promise.resolve();
      },
    });
    const routed = routingReporter(
      runtimes({
        github: { tasks: [], reporter: reporter('github', true) },
        gitlab: { tasks: [], reporter: reporter('gitlab', false) },
      }),
    );
    const report: ItemReport = {
      tenant: 'acme',
      pipeline: 'gate',
      phase: 'success',
      change: change('github.com/org/app', 2),
      otherChanges: [change('github.com/org/app', 1)],
      buildsetUuid: 'b',
      message: 'Build succeeded.',
      result: 'SUCCESS',
      jobs: [],
      reporters: [
        { connection: 'hub', driver: 'github', options: {} },
        { connection: 'lab', driver: 'gitlab', options: {} },
      ],
    };
    const refusal = await routed?.report(report).then(
      () => null,
      (error: unknown) => error,
    );
    expect(got).toEqual(['github 1', 'github 2', 'gitlab 1', 'gitlab 2']);
    expect(refusal).toBeInstanceOf(ReportNotSent);
    expect((refusal as ReportNotSent).failures).toEqual(['github: github is down', 'github: github is down']);
  });
});
