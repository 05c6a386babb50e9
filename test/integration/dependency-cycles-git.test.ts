/**
 * Dependency cycles with real git, the real executor and the server in one process
 * (docs/gating.md#dependency-cycles): the quickstart with two more projects, `example/world`
 * sharing the queue `integrated` (allow-circular-dependencies) with `example/hello`, and
 * `example/solo` without a queue. Each change of a cycle adds a `cycle-*.txt` file; every job
 * fails unless both changes' files are in the tree it runs on, and whenever a `fail-*.txt` is
 * in either project. The job `cycle-shared`, marked `deduplicate: true`, is in both projects.
 * A `hold-*.txt` in the tree holds every job until the file it names exists (at most five minutes).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git } from '../../src/sources/git-cli';
import { ENQUEUE } from '../helpers/gate-deployment';
import { gitPoller } from '../helpers/git-pollers';
import { startQuickstartApp, type QuickstartApp } from '../helpers/quickstart-app';
import { enqueuedItem, eventsJudged, lastBuilds, reportOf } from '../helpers/quickstart-items';
import { pushChange } from '../helpers/quickstart-deployment';

// Each case runs several real builds; on a loaded 2-core machine one took 160 s.
jest.setTimeout(420_000);

const TENANT = 'example';
const PROJECTS = ['example/hello', 'example/world', 'example/solo'] as const;
type Project = (typeof PROJECTS)[number];

/**
 * Each `cycle-N.txt` names the file of the other change of its cycle: the job fails when that
 * file is not in the tree it runs on (a state without the other change), and on any fail-*.txt.
 */
const CHECK_SCRIPT = `#!/bin/sh
set -e
cd ..
for hold in hello/hold-*.txt world/hold-*.txt; do
  [ -e "$hold" ] || continue
  waited=0
  while [ ! -e "$(cat "$hold")" ] && [ $waited -lt 3000 ]; do sleep 0.1; waited=$((waited + 1)); done
done
failing=$(ls hello/fail-*.txt world/fail-*.txt solo/fail-*.txt 2>/dev/null || true)
if [ -n "$failing" ]; then
  echo "FAILING: $failing"
  exit 1
fi
present=$(ls hello/cycle-*.txt world/cycle-*.txt solo/cycle-*.txt 2>/dev/null || true)
for file in $present; do
  needed=$(cat "$file")
  test -e "$needed" || { echo "MISSING: $needed (named by $file)"; exit 1; }
done
echo "state holds:" $present
`;

/** A project's jobs: its own check and, for hello and world, the shared deduplicated one. */
function projectConfig(short: string, queue: boolean): string {
  const own = `${short}-cycle`;
  return `- job:
    name: ${own}
    run: scripts/check.sh
    required-projects: [${PROJECTS.join(', ')}]
${short === 'hello' ? SHARED_JOB : ''}
- project:
${queue ? '    queue: integrated\n' : ''}    check:
      jobs: [${own}${queue ? ', cycle-shared' : ''}]
    gate:
      jobs: [${own}${queue ? ', cycle-shared' : ''}]
`;
}

const SHARED_JOB = `
- job:
    name: cycle-shared
    deduplicate: true
    run: scripts/check.sh
    required-projects: [${PROJECTS.join(', ')}]
`;

function deploymentFiles(): Record<string, string> {
  const quickstart = path.resolve(__dirname, '../../examples/quickstart');
  const files: Record<string, string> = {
    'main.yaml': `- tenant:
    name: ${TENANT}
    source:
      local:
        config-projects:
          - sluice-config
        untrusted-projects:
${PROJECTS.map((project) => `          - ${project}`).join('\n')}
`,
    'repos/sluice-config/zuul.yaml': `${readFileSync(path.join(quickstart, 'repos/sluice-config/zuul.yaml'), 'utf8')}
- queue:
    name: integrated
    allow-circular-dependencies: true
`,
  };
  for (const project of PROJECTS) {
    const short = project.split('/')[1];
    files[`repos/${project}/.zuul.yaml`] = projectConfig(short, project !== 'example/solo');
    files[`repos/${project}/scripts/check.sh`] = CHECK_SCRIPT;
    files[`repos/${project}/README`] = `${project}\n`;
  }
  return files;
}

describe('dependency cycles with real git', () => {
  let qs: QuickstartApp;

  beforeAll(async () => {
    qs = await startQuickstartApp('sluice-cycles-', {
      deploymentFiles: deploymentFiles(),
      configure: (config) => {
        config.executor.slots = 4;
      },
    });
  });

  afterAll(async () => {
    await qs?.stop();
  });

  const bareRepo = (project: Project): string => path.join(path.dirname(qs.bareRepo), `${project.split('/')[1]}.git`);

  /**
   * Push change `number` of `project` adding `cycle-<number>.txt`, which names the other change's
   * file, and `extra` files; its Depends-On trailer names the other change.
   */
  async function push(
    project: Project,
    number: number,
    other: [Project, number],
    extra: string[] = [],
  ): Promise<string> {
    const [otherProject, otherNumber] = other;
    const content: Record<string, string> = {
      [`cycle-${number}.txt`]: `${otherProject.split('/')[1]}/cycle-${otherNumber}.txt`,
    };
    for (const file of extra) {
      content[file] = `${file} of change ${number}\n`;
    }
    return pushChange(
      qs.root,
      bareRepo(project),
      number,
      content,
      `Change ${number}\n\nDepends-On: ${otherProject}:${otherNumber}`,
    );
  }

  async function enqueue(pipeline: string, project: Project, number: number): Promise<void> {
    const response = await fetch(`${qs.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${qs.token()}` },
      body: JSON.stringify({
        query: ENQUEUE,
        variables: { input: { tenant: TENANT, pipeline, project, change: `${number},1` } },
      }),
    });
    const body = (await response.json()) as { data?: { enqueue: { __typename: string } } };
    expect(body.data?.enqueue.__typename).toBe('ManagementEventAccepted');
  }

  async function onMaster(project: Project, sha: string): Promise<boolean> {
    try {
      await git(bareRepo(project), ['merge-base', '--is-ancestor', sha, 'refs/heads/master']);
      return true;
    } catch {
      return false;
    }
  }

  /** The buildsets holding a change of `project`, with their results, messages and builds. */
  async function buildsetsOf(pipeline: string, number: number) {
    const rows: Array<{ id: number; result: string | null; message: string | null }> = await qs.database
      .knex('buildsets')
      .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .where({ 'buildsets.tenant': TENANT, 'buildsets.pipeline': pipeline, 'refs.change': number })
      .orderBy('buildsets.id')
      .select('buildsets.id', 'buildsets.result', 'buildsets.message');
    const builds: Array<{ buildset_id: number; job_name: string; result: string; log_url: string | null }> =
      await qs.database
        .knex('builds')
        .whereIn(
          'buildset_id',
          rows.map((row) => row.id),
        )
        .where({ final: true })
        .orderBy('job_name')
        .select('buildset_id', 'job_name', 'result', 'log_url');
    return rows.map((row) => ({
      ...row,
      builds: builds.filter((build) => build.buildset_id === row.id),
    }));
  }

  async function log(url: string | null): Promise<string> {
    return url === null ? '' : (await fetch(new URL('job-output.txt', url))).text();
  }

  // First: it polls the repositories, and every change pushed before a poll is a new patchset then.
  it('enqueues the other member again when one member of a cycle gets a new patchset', async () => {
    const release = path.join(mkdtempSync(path.join(qs.root, 'release-')), 'go');
    const poll = async () => {
      await gitPoller(qs.app.roles, 'local')?.pollNow();
    };
    await pushChange(
      qs.root,
      bareRepo('example/hello'),
      11,
      { 'hold-11.txt': release },
      'Change 11\n\nDepends-On: example/world:12',
    );
    await pushChange(
      qs.root,
      bareRepo('example/world'),
      12,
      { 'world-12.txt': 'one\n' },
      'Change 12\n\nDepends-On: example/hello:11',
    );
    const from = qs.deltaCount();
    await poll(); // patchset-created for both: check takes the cycle as one item
    const cycle = await qs.waitForDelta(
      from,
      (delta) => delta.type === 'item-enqueued' && delta.pipeline === 'check' && delta.changeIds.includes('11,1'),
    );
    const cycleUuid = cycle.type === 'item-enqueued' ? cycle.itemUuid : '';
    expect(cycle.type === 'item-enqueued' && [...cycle.changeIds].sort()).toEqual(['11,1', '12,1']);
    // Both events judged before the next patchset exists: judged after it, the event of 12,1 would
    // find the cycle already broken (cycle-changed) and enqueue the outdated patchset on its own.
    await eventsJudged(qs);
    // Change 12's second patchset leaves the cycle (no Depends-On any more).
    await pushChange(qs.root, bareRepo('example/world'), 12, { 'world-12.txt': 'two\n' }, 'Change 12 again', 2);
    const again = qs.deltaCount();
    await poll();
    await qs.waitForDelta(
      again,
      (delta) => delta.type === 'item-dequeued' && delta.itemUuid === cycleUuid && delta.reason.kind === 'new-patchset',
    );
    // Change 11 is enqueued again, as it is now: alone, after the patchset it still needs.
    const alone = await enqueuedItem(qs, 'check', 11, again);
    expect(alone.changeIds).toEqual(['11,1']);
    writeFileSync(release, 'go\n');
    expect((await reportOf(qs, 'check', 11, again)).result).toBe('SUCCESS');
    expect(await lastBuilds(qs, 'check', { change: 11 })).toEqual({
      'cycle-shared': 'SUCCESS',
      'hello-cycle': 'SUCCESS',
    });
    // Patchset 2 of change 12 reports too (in its own item or ahead of 11) before the next test looks at check.
    await qs.waitForDelta(
      again,
      (delta) => delta.type === 'item-reported' && delta.pipeline === 'check' && delta.itemUuid !== alone.itemUuid,
    );
  });

  it('gates a two-change cycle: both tested together, the shared job runs once, both merged', async () => {
    const hello = await push('example/hello', 1, ['example/world', 2]);
    const world = await push('example/world', 2, ['example/hello', 1]);
    const from = qs.deltaCount();
    await enqueue('gate', 'example/hello', 1);
    const report = await qs.waitForReport('gate', from);
    expect(report.type === 'item-reported' && report.result).toBe('SUCCESS');
    const [buildset] = await buildsetsOf('gate', 1);
    expect(buildset.result).toBe('SUCCESS');
    expect((await buildsetsOf('gate', 2)).map((row) => row.id)).toEqual([buildset.id]);
    expect(buildset.builds.map((build) => [build.job_name, build.result])).toEqual([
      ['cycle-shared', 'SUCCESS'],
      ['hello-cycle', 'SUCCESS'],
      ['world-cycle', 'SUCCESS'],
    ]);
    const shared = buildset.builds.find((build) => build.job_name === 'cycle-shared');
    expect(await log(shared?.log_url ?? null)).toContain('state holds: hello/cycle-1.txt world/cycle-2.txt');
    expect(await onMaster('example/hello', hello)).toBe(true);
    expect(await onMaster('example/world', world)).toBe(true);
  });

  it('merges neither change of a cycle when a job fails on one of them', async () => {
    const hello = await push('example/hello', 3, ['example/world', 4], ['fail-3.txt']);
    const world = await push('example/world', 4, ['example/hello', 3]);
    const from = qs.deltaCount();
    await enqueue('gate', 'example/world', 4);
    const report = await qs.waitForReport('gate', from);
    expect(report.type === 'item-reported' && report.result).toBe('FAILURE');
    const [buildset] = await buildsetsOf('gate', 4);
    expect(buildset.message).toContain('This change is part of a dependency cycle that failed.');
    expect(buildset.builds.every((build) => build.result === 'FAILURE')).toBe(true);
    expect(await onMaster('example/hello', hello)).toBe(false);
    expect(await onMaster('example/world', world)).toBe(false);
  });

  it('reports a cycle in check once, for both changes', async () => {
    await push('example/hello', 5, ['example/world', 6]);
    await push('example/world', 6, ['example/hello', 5]);
    const from = qs.deltaCount();
    await enqueue('check', 'example/world', 6);
    const report = await qs.waitForReport('check', from);
    expect(report.type === 'item-reported' && report.result).toBe('SUCCESS');
    const [buildset] = await buildsetsOf('check', 5);
    expect((await buildsetsOf('check', 6)).map((row) => row.id)).toEqual([buildset.id]);
    expect(buildset.builds.map((build) => [build.job_name, build.result])).toEqual([
      ['cycle-shared', 'SUCCESS'],
      ['hello-cycle', 'SUCCESS'],
      ['world-cycle', 'SUCCESS'],
    ]);
    const world = buildset.builds.find((build) => build.job_name === 'world-cycle');
    expect(await log(world?.log_url ?? null)).toContain('state holds');
  });

  it('refuses a cycle with a project whose queue does not allow it, and reports why', async () => {
    await push('example/hello', 7, ['example/solo', 8]);
    await push('example/solo', 8, ['example/hello', 7]);
    await enqueue('check', 'example/hello', 7);
    let rows = await buildsetsOf('check', 7);
    for (let tries = 0; rows.length === 0 && tries < 600; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await buildsetsOf('check', 7);
    }
    expect(rows.map((row) => row.result)).toEqual(['FAILURE']);
    expect(rows[0].message).toContain(
      "Dependency cycle detected and project example/solo doesn't allow circular dependencies",
    );
    expect(rows[0].builds).toEqual([]);
  });
});
