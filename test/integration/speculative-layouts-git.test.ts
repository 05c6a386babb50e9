/**
 * Speculative layouts with real git, the real executor and the server in one process
 * (docs/gating.md#speculative-layouts): a change that adds a job runs it before it merges; a broken
 * configuration change is reported with its error and never merges; in a gate of three, the third
 * change uses the job the second one adds; and the post run of a merged configuration change runs
 * the job it added (the tenant is reconfigured before the merge is announced), and so does the
 * post run of a configuration change pushed to the branch directly (reconfigured before the pass).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git } from '../../src/sources/git-cli';
import { gitPoller } from '../helpers/git-pollers';
import { QUICKSTART_TENANT, startQuickstartApp, type QuickstartApp } from '../helpers/quickstart-app';
import { enqueueChange, lastBuilds, reportOf as reportOfItem } from '../helpers/quickstart-items';

jest.setTimeout(240_000);

const ZUUL_YAML = readFileSync(
  path.resolve(__dirname, '../../examples/quickstart/repos/example/hello/.zuul.yaml'),
  'utf8',
);

/** A job definition inserted after the file's first (comment) line, far from the project stanza. */
function withJob(text: string, name: string): string {
  const [first, ...rest] = text.split('\n');
  const job = ['- job:', `    name: ${name}`, '    run: scripts/extra.sh', ''];
  return [first, ...job, ...rest].join('\n');
}

/** `job` added to the jobs of `pipeline` in the project stanza (after its last listed job). */
function withPipelineJob(text: string, pipeline: string, job: string): string {
  const lines = text.split('\n');
  let at = lines.indexOf(`    ${pipeline}:`) + 2;
  while (lines[at]?.startsWith('        - ')) {
    at++;
  }
  lines.splice(at, 0, `        - ${job}`);
  return lines.join('\n');
}

describe('speculative layouts with real git', () => {
  let qs: QuickstartApp;

  beforeAll(async () => {
    qs = await startQuickstartApp('sluice-speculative-', {
      projectFiles: { 'scripts/extra.sh': '#!/bin/sh\necho "extra job ran"\n' },
      configure: (config) => {
        config.executor.slots = 4;
      },
    });
  });

  afterAll(async () => {
    await qs?.stop();
  });

  const enqueue = (pipeline: string, number: number) => enqueueChange(qs, pipeline, number);
  const reportOf = (pipeline: string, number: number, from: number) => reportOfItem(qs, pipeline, number, from);
  const builds = (pipeline: string, where: Record<string, unknown>) => lastBuilds(qs, pipeline, where);

  /**
   * The post builds of the push of `tip`, once its buildset has reported and `job` is among them
   * (for up to a minute): its jobs finish in any order, so one job's result is not enough.
   */
  async function postBuilds(tip: string, job: string): Promise<Record<string, string>> {
    let post: Record<string, string> = {};
    const reported = async (): Promise<boolean> => {
      const row: { result: string | null } | undefined = await qs.database
        .knex('buildsets')
        .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
        .join('refs', 'refs.id', 'buildset_refs.ref_id')
        .where({ 'buildsets.tenant': QUICKSTART_TENANT, 'buildsets.pipeline': 'post', 'refs.newrev': tip })
        .orderBy('buildsets.id', 'desc')
        .first('buildsets.result');
      return (row?.result ?? null) !== null;
    };
    for (let tries = 0; tries < 600; tries++) {
      // Read after the report: the builds are then final.
      const done = await reported();
      post = await builds('post', { newrev: tip });
      if (done && job in post) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return post;
  }

  async function onMaster(sha: string): Promise<boolean> {
    return git(qs.bareRepo, ['merge-base', '--is-ancestor', sha, 'refs/heads/master']).then(
      () => true,
      () => false,
    );
  }

  it('runs a job a change adds in check, before the change merges', async () => {
    const text = withPipelineJob(withJob(ZUUL_YAML, 'hello-extra'), 'check', 'hello-extra');
    const sha = await qs.pushChange(1, { '.zuul.yaml': text }, 'Add hello-extra to check');
    const from = qs.deltaCount();
    await enqueue('check', 1);
    const report = await reportOf('check', 1, from);
    expect(report.result).toBe('SUCCESS');
    expect(await builds('check', { change: 1 })).toEqual({
      'hello-unit': 'SUCCESS',
      'hello-lint': 'SUCCESS',
      'hello-extra': 'SUCCESS',
    });
    expect(await onMaster(sha)).toBe(false);
  });

  it('reports a broken configuration change with its error and never merges it', async () => {
    const broken = withPipelineJob(ZUUL_YAML, 'gate', 'no-such-job');
    const sha = await qs.pushChange(2, { '.zuul.yaml': broken }, 'Use a job nobody defined');
    const from = qs.deltaCount();
    await enqueue('gate', 2);
    const report = await reportOf('gate', 2, from);
    expect(report.result).toBe('CONFIG_ERROR');
    expect(report.message).toContain('no-such-job');
    expect(report.message).toMatch(/\.zuul\.yaml", line \d+/);
    expect(await builds('gate', { change: 2 })).toEqual({});
    expect(await onMaster(sha)).toBe(false);
  });

  it('gates three changes where the third uses the job the second adds', async () => {
    const plain = await qs.pushChange(3, { 'notes-3.md': 'Notes\n' }, 'Change 3');
    const adds = await qs.pushChange(4, { '.zuul.yaml': withJob(ZUUL_YAML, 'hello-extra') }, 'Define hello-extra');
    // Based on master, not on change 4: alone it names a job that does not exist.
    const uses = await qs.pushChange(
      5,
      { '.zuul.yaml': withPipelineJob(ZUUL_YAML, 'gate', 'hello-extra') },
      'Run hello-extra in gate',
    );
    const from = qs.deltaCount();
    for (const number of [3, 4, 5]) {
      await enqueue('gate', number);
    }
    for (const number of [3, 4, 5]) {
      expect((await reportOf('gate', number, from)).result).toBe('SUCCESS');
    }
    expect(await builds('gate', { change: 5 })).toEqual({
      'hello-unit': 'SUCCESS',
      'hello-lint': 'SUCCESS',
      'hello-extra': 'SUCCESS',
    });
    for (const sha of [plain, adds, uses]) {
      expect(await onMaster(sha)).toBe(true);
    }
  });

  it('runs the post job a merged configuration change adds on the merge itself', async () => {
    const current = (await git(qs.bareRepo, ['show', 'master:.zuul.yaml'])).stdout;
    const text = withPipelineJob(withJob(current, 'hello-announce'), 'post', 'hello-announce');
    const from = qs.deltaCount();
    await qs.pushChange(6, { '.zuul.yaml': text }, 'Announce after every merge');
    await enqueue('gate', 6);
    expect((await reportOf('gate', 6, from)).result).toBe('SUCCESS');
    const tip = (await git(qs.bareRepo, ['rev-parse', 'refs/heads/master'])).stdout.trim();
    const post = await postBuilds(tip, 'hello-announce');
    expect(post).toEqual({ 'hello-publish': 'SUCCESS', 'hello-announce': 'SUCCESS' });
  });

  it('runs the post job a configuration change pushed to the branch adds, on that push', async () => {
    await gitPoller(qs.app.roles, 'local')?.pollNow(); // the branch tips before the push
    const work = mkdtempSync(path.join(qs.root, 'direct-'));
    await git(qs.root, ['clone', '--quiet', qs.bareRepo, work]);
    const current = readFileSync(path.join(work, '.zuul.yaml'), 'utf8');
    writeFileSync(
      path.join(work, '.zuul.yaml'),
      withPipelineJob(withJob(current, 'hello-direct'), 'post', 'hello-direct'),
    );
    await git(work, ['-c', 'user.name=U', '-c', 'user.email=u@example.com', 'commit', '--quiet', '-am', 'Direct']);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);
    const tip = (await git(work, ['rev-parse', 'HEAD'])).stdout.trim();
    await gitPoller(qs.app.roles, 'local')?.pollNow();
    // hello-announce too when the test before it ran.
    expect(await postBuilds(tip, 'hello-direct')).toMatchObject({
      'hello-publish': 'SUCCESS',
      'hello-direct': 'SUCCESS',
    });
  });
});
