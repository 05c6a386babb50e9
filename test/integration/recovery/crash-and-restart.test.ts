/**
 * Faults of whole `sluice serve` processes on one PostgreSQL database (docs/operations.md#lost-work,
 * docs/operations.md#durable-source-state):
 * - `kill -9` while two gate builds run and right after a third change was pushed: the restarted
 *   process ends the dead process's builds ABORTED, retries them, reports the third change once,
 *   and the gate merges all three, each once;
 * - a change pushed while Sluice is stopped is tested once after the restart, and a further
 *   restart does not report it again.
 */
import { git } from '../../../src/sources/git-cli';
import {
  describeMultiProcess,
  recoveryDeployment,
  waitFor,
  type RecoveryDeployment,
} from '../../helpers/recovery-deployment';

jest.setTimeout(240_000);

async function count(deployment: RecoveryDeployment, table: string, where: Record<string, unknown>): Promise<number> {
  const [{ n }] = await deployment.store.knex(table).where(where).count({ n: '*' });
  return Number(n);
}

/** The poller of the running process saved the refs of org/app (its baseline or a later poll). */
async function pollerGeneration(deployment: RecoveryDeployment): Promise<number> {
  const row: { generation: string | number } | undefined = await deployment.store
    .knex('git_poller_state')
    .where({ connection: 'local', project: 'org/app' })
    .first('generation')
    .catch(() => undefined);
  return row ? Number(row.generation) : 0;
}

/** Each change's merge commit on master, oldest first (`Change N`). */
async function mergedChanges(deployment: RecoveryDeployment): Promise<string[]> {
  const { stdout } = await git(`${deployment.baseDir}/org/app.git`, ['log', '--reverse', '--format=%s', 'master']);
  return stdout
    .split('\n')
    .filter((subject) => /^Change \d+$/.test(subject))
    .map((subject) => subject.replace('Change ', ''));
}

describeMultiProcess('sluice serve processes killed and restarted', () => {
  let deployment: RecoveryDeployment;

  afterEach(async () => {
    deployment.killOrphanSteps();
    await deployment.close();
  });

  it('kill -9 during gate builds: the restarted process retries the lost builds and the gate finishes, nothing twice', async () => {
    deployment = await recoveryDeployment();
    const first = await deployment.serve();
    await waitFor('the first poll of org/app', async () => (await pollerGeneration(deployment)) > 0);
    await deployment.pushChange(1);
    await deployment.pushChange(2);
    await waitFor('both gate builds to run', () => deployment.mark('started-1-1') && deployment.mark('started-2-1'));
    // A third change pushed just before the crash: reported once whether or not the poll saw it.
    await deployment.pushChange(3);
    first.child.kill('SIGKILL');
    await first.exited;
    // The host went down with the process: its step processes end too.
    deployment.killOrphanSteps();

    const second = await deployment.serve();
    await waitFor(
      'the lost builds to run again',
      () => deployment.mark('started-1-2') && deployment.mark('started-2-2'),
    );
    deployment.release();
    await waitFor(
      'three changes reported',
      async () => (await count(deployment, 'buildsets', { tenant: 'example', result: 'SUCCESS' })) === 3,
      120_000,
    );
    expect(await mergedChanges(deployment)).toEqual(['1', '2', '3']);
    const builds: Array<{ result: string; final: boolean }> = await deployment.store
      .knex('builds')
      .where({ tenant: 'example', job_name: 'slow' })
      .select('result', 'final');
    expect(builds.map((build) => `${build.result}:${build.final}`).sort()).toEqual([
      'RETRY:false',
      'RETRY:false',
      'SUCCESS:true',
      'SUCCESS:true',
      'SUCCESS:true',
    ]);
    const lost: Array<{ result: string; worker: string }> = await deployment.store
      .knex('build_requests')
      .where({ result: 'ABORTED' })
      .select('result', 'worker');
    expect(lost).toHaveLength(2);
    expect(await count(deployment, 'engine_events', { event_type: 'patchset-created' })).toBe(3);
    // Each retried build ran to its end once (the killed attempts never finished).
    expect(deployment.runs().sort()).toEqual(['1 2', '2 2', '3 1']);
    expect(await count(deployment, 'build_requests', { state: 'running' })).toBe(0);
    await second.stop();
  });

  it('a change pushed while Sluice is stopped is tested once after the restart', async () => {
    deployment = await recoveryDeployment();
    deployment.release();
    const first = await deployment.serve();
    await waitFor('the first poll of org/app', async () => (await pollerGeneration(deployment)) > 0);
    await first.stop();

    await deployment.pushChange(7);
    const second = await deployment.serve();
    await waitFor(
      'change 7 reported',
      async () => (await count(deployment, 'buildsets', { tenant: 'example', result: 'SUCCESS' })) === 1,
      120_000,
    );
    expect(await mergedChanges(deployment)).toEqual(['7']);
    await second.stop();

    // Once more: the next process compares with what was saved and reports nothing again. A new
    // branch tip proves it polled after starting.
    const before = await pollerGeneration(deployment);
    const third = await deployment.serve();
    await deployment.pushBranch('unrelated');
    await waitFor('a poll after the restart', async () => (await pollerGeneration(deployment)) > before);
    expect(await count(deployment, 'engine_events', { event_type: 'patchset-created' })).toBe(1);
    expect(await count(deployment, 'buildsets', { tenant: 'example' })).toBe(1);
    expect(deployment.runs()).toEqual(['7 1']);
    await third.stop();
  });
});
