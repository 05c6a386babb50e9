/**
 * A `sluice serve` process on a private PostgreSQL cluster the test starts itself (initdb and
 * pg_ctl on a free port; the shared server is never touched) while changes are being gated
 * (docs/operations.md#what-happens-on-each-database-fault):
 *
 * - the cluster is stopped `fast`, started again, later stopped `immediate` (a crash) and
 *   started again: the process lives on, is ready again within 10 s each time, and every change
 *   is queued, tested and merged once;
 * - SIGTERM while the database is gone (refusing connections, or frozen: no answer at all): the
 *   process exits within `shutdownTimeout`.
 */
import knexFactory, { type Knex } from 'knex';
import { GateDeployment } from '../../helpers/gate-deployment';
import { eventually } from '../../helpers/pg-faults';
import { postgresBinDir, PrivateCluster } from '../../helpers/private-cluster';
import { describeExit } from '../../helpers/process-exit';
import { startServe, type ServeProcess } from '../../helpers/serve-process';
import { describeIf, POSTGRES_BINARIES } from '../../helpers/preconditions';

const bin = postgresBinDir();
const withCluster = describeIf(POSTGRES_BINARIES);

/** Readiness after PostgreSQL is back (docs/operations.md#health). */
const READY_WITHIN_MS = 10_000;
const SHUTDOWN_TIMEOUT_S = 3;
/**
 * A stop that cannot finish (the database does not answer) ends with the hard exit one second
 * after shutdownTimeout (docs/operations.md#shutdown); one more second for the process to go.
 */
const HARD_EXIT_MS = SHUTDOWN_TIMEOUT_S * 1000 + 2000;

jest.setTimeout(600_000);

withCluster('PostgreSQL restarts under a running sluice serve (private cluster)', () => {
  let cluster: PrivateCluster;
  let deployment: GateDeployment;
  let knex: Knex;
  const processes: ServeProcess[] = [];

  beforeAll(async () => {
    cluster = await PrivateCluster.create(bin ?? '');
    await cluster.start();
    deployment = await GateDeployment.create('sluice-pg-restart');
    knex = knexFactory({ client: 'pg', connection: cluster.url, pool: { min: 0, max: 2 } });
  });

  afterAll(async () => {
    for (const serve of processes) {
      serve.child.kill('SIGKILL');
    }
    await knex?.destroy();
    await cluster?.destroy();
    deployment?.cleanup();
  });

  async function serve(name: string): Promise<ServeProcess> {
    const started = await startServe(deployment.configFile(name, cluster.url, { shutdownTimeout: SHUTDOWN_TIMEOUT_S }));
    processes.push(started);
    await eventually('the process ready', async () => (await started.ready()).status === 200, 60_000, 100);
    return started;
  }

  /** What the store holds of the gate (for failure messages). */
  async function storeSummary(): Promise<string> {
    const items = await knex('queue_items').whereNull('dequeue_time').select('pipeline', 'state', 'changes');
    const requests = await knex('build_requests').select('build_uuid', 'state', 'worker', 'updated');
    const events = await knex('engine_events').whereNull('processed').select('event_type');
    const leases = await knex('scheduler_leases').select('holder', 'epoch', 'expires_at');
    return JSON.stringify({ items, requests, events, leases }, null, 1);
  }

  /** Resolves once a build of the gate runs (so the stop happens under load). */
  async function buildRunning(): Promise<void> {
    await eventually(
      'a build running',
      async () => {
        const rows = await knex('build_requests').where({ state: 'running' }).count({ n: '*' });
        return Number(rows[0]?.n) > 0;
      },
      120_000,
      50,
    );
  }

  /** Restart the cluster with `mode`; resolves with how long the process took to be ready again. */
  async function restart(sluice: ServeProcess, mode: 'fast' | 'immediate'): Promise<number> {
    await cluster.stop(mode);
    await eventually(
      'the process to notice',
      async () => {
        const exit = sluice.exit();
        if (exit !== undefined) {
          throw new Error(`sluice exited (${describeExit(exit)}): ${sluice.output().slice(-3000)}`);
        }
        return (await sluice.ready()).status === 503;
      },
      30_000,
      100,
    ).finally(() => cluster.start());
    const back = Date.now();
    await eventually('the process ready again', async () => (await sluice.ready()).status === 200, 30_000, 100);
    return Date.now() - back;
  }

  it('fast and immediate stops while changes are gated: ready within 10 s, nothing lost or duplicated', async () => {
    const sluice = await serve('restart');
    const shas = new Map<number, string>();
    const gate = async (changes: number[]): Promise<void> => {
      for (const change of changes) {
        shas.set(change, await deployment.pushChange(change));
        await deployment.enqueue(sluice.base, change);
      }
    };

    await gate([1, 2, 3, 4]);
    await buildRunning();
    const afterFast = await restart(sluice, 'fast');
    expect(afterFast).toBeLessThan(READY_WITHIN_MS);

    await gate([5, 6, 7, 8]);
    await buildRunning();
    const afterImmediate = await restart(sluice, 'immediate');
    expect(afterImmediate).toBeLessThan(READY_WITHIN_MS);

    const changes = [...shas.keys()];
    await eventually(
      'every change reported in gate',
      async () =>
        (await deployment.gateOutcome(knex, changes)).every(
          (outcome) => outcome.buildsets.length > 0 && outcome.buildsets.every((result) => result !== null),
        ),
      300_000,
      250,
    ).catch(async (error: unknown) => {
      throw new Error(
        `${String(error)}\n--- store ---\n${await storeSummary()}\n--- sluice output ---\n${sluice.output().slice(-6000)}`,
      );
    });
    expect(await deployment.gateOutcome(knex, changes)).toEqual(
      changes.map((change) => ({ change, items: 1, buildsets: ['SUCCESS'], duplicateBuilds: 0 })),
    );
    for (const sha of shas.values()) {
      expect(await deployment.merged(sha)).toBe(true);
    }
    expect(sluice.exit()).toBeUndefined(); // alive all along
    expect((await sluice.ready()).body).toMatchObject({ status: 'ready' });

    await sluice.stop();
  });

  /** Once the process is not ready, SIGTERM; resolves with the milliseconds until it exited (bounded). */
  async function terminate(sluice: ServeProcess): Promise<number> {
    // 503, or no answer within 5 s (a process whose readiness check hangs on the database).
    await eventually('the process to notice', async () => (await sluice.ready()).status !== 200, 30_000, 100);
    const signalled = Date.now();
    sluice.child.kill('SIGTERM');
    const limit = SHUTDOWN_TIMEOUT_S * 1000 + 10_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([sluice.exited, new Promise((resolve) => (timer = setTimeout(resolve, limit)))]);
    clearTimeout(timer);
    return Date.now() - signalled;
  }

  it('exits within shutdownTimeout on SIGTERM while the database refuses connections', async () => {
    const sluice = await serve('sigterm-stopped');
    await cluster.stop('immediate');
    try {
      // The deadline itself plus the time a process takes to end.
      expect(await terminate(sluice)).toBeLessThan(HARD_EXIT_MS);
    } finally {
      await cluster.start();
    }
  });

  it('exits within shutdownTimeout on SIGTERM while the database does not answer at all', async () => {
    const sluice = await serve('sigterm-frozen');
    cluster.freeze();
    try {
      expect(await terminate(sluice)).toBeLessThan(HARD_EXIT_MS);
    } finally {
      cluster.thaw();
    }
  });
});
