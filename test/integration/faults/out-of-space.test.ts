/**
 * A real `sluice serve` process whose build logs (`logs.dir`, a 3 MB tmpfs) and node workspaces
 * (a local provider's root, a 2 MB tmpfs) fill up (docs/executor.md#out-of-space): a build whose
 * workspace cannot hold the change ends ERROR naming the full disk (not MERGE_CONFLICT), builds
 * whose output fills the log disk end ERROR with the reason, the process stays up, and the nodes
 * are returned. After a `kill -9` during a build, a process restarted on a full log disk retries
 * the lost build, which ends ERROR too: no crash loop. Runs on the store `DATABASE_URL` names
 * (PostgreSQL), else on the embedded store. Needs a private mount namespace (test/helpers/tmpfs.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedRepositories } from '../../../src/drivers/git/seed';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminToken } from '../../helpers/live';
import { describeIf } from '../../helpers/preconditions';
import { pushChange, waitFor } from '../../helpers/recovery-deployment';
import { startServe, type ServeProcess } from '../../helpers/serve-process';
import { killStep } from '../../helpers/step-processes';
import { inTmpfs, TMPFS, type TmpfsMount } from '../../helpers/tmpfs';

jest.setTimeout(240_000);

const LOG_DISK = 3 * 1024 * 1024;
const NODE_DISK = 2 * 1024 * 1024;

// About 5 MB of log (40,000 lines), more than the whole log disk; waits for `release` first.
const BIG_OUTPUT = `#!/bin/sh
marks="$SLUICE_VAR_marks"
echo $$ > "$marks/pid-$SLUICE_CHANGE-$SLUICE_ATTEMPT"
touch "$marks/started-$SLUICE_CHANGE-$SLUICE_ATTEMPT"
while [ ! -f "$marks/release" ]; do sleep 0.1; done
head -c 4000000 /dev/zero | tr '\\0' x | fold -w 99
`;

const CONFIG = `- pipeline:
    name: check
    manager: independent
    trigger: {}

- image:
    name: host
    type: cloud
- flavor:
    name: normal
- label:
    name: small
    image: host
    flavor: normal
- section:
    name: local-section
    connection: nodes
    images: [host]
    flavors: [normal]
- provider:
    name: local-nodes
    section: local-section
    labels: [small]

- job:
    name: base
    parent: null
    attempts: 3
    nodeset:
      nodes:
        - name: worker
          label: small
`;

interface BuildRecord {
  job_name: string;
  result: string | null;
  error_detail: string | null;
}

describeIf(TMPFS)('a full disk under a real sluice serve process', () => {
  let dir: string;
  let marks: string;
  let database: TestDatabase | null = null;
  let processes: ServeProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-out-of-space-'));
    marks = path.join(dir, 'marks');
    const seed = path.join(dir, 'seed');
    for (const sub of ['marks', 'logs', 'nodes', 'seed/sluice-config', 'seed/org/app/scripts']) {
      mkdirSync(path.join(dir, sub), { recursive: true });
    }
    writeFileSync(path.join(seed, 'sluice-config', 'zuul.yaml'), CONFIG);
    writeFileSync(
      path.join(seed, 'org', 'app', '.zuul.yaml'),
      `- job:\n    name: big-output\n    run: scripts/big-output.sh\n    vars:\n      marks: ${marks}\n\n- project:\n    check:\n      jobs:\n        - big-output\n`,
    );
    writeFileSync(path.join(seed, 'org', 'app', 'scripts', 'big-output.sh'), BIG_OUTPUT, { mode: 0o755 });
    await seedRepositories(seed, path.join(dir, 'repos'));
    writeFileSync(
      path.join(dir, 'main.yaml'),
      `- tenant:\n    name: example\n    source:\n      local:\n        config-projects:\n          - sluice-config:\n              include: [pipeline, job, image, flavor, label, section, provider]\n        untrusted-projects:\n          - org/app\n`,
    );
    writeFileSync(
      path.join(dir, 'sluice.yaml'),
      `listen: {host: 127.0.0.1, port: 0}
dataDir: data
tenantConfig: main.yaml
shutdownTimeout: 10
logs: {dir: logs}
connections:
  local: {driver: git, baseurl: repos, pollInterval: 60}
  nodes: {driver: local, root: nodes}
components: {heartbeatInterval: 1, expiry: 600}
auth:
  authenticators:
    - {name: sluice-test, driver: HS256, realm: sluice, issuer: sluice-test, clientId: sluice, secret: live-test-secret-of-some-length, uidClaim: sub, allowAuthzOverride: true, default: true}
`,
    );
    if (process.env.DATABASE_URL) {
      database = await createTestDatabase({ backend: 'postgres', migrate: false });
    }
  });

  afterEach(async () => {
    for (const started of processes) {
      started.child.kill('SIGKILL');
      await started.exited;
    }
    processes = [];
    killOrphanSteps();
  });

  afterAll(async () => {
    await database?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Start the process with fresh tmpfs mounts; `fullLogDisk` fills the log disk first. */
  async function serve(options: { fullLogDisk?: boolean } = {}): Promise<ServeProcess> {
    const mounts: TmpfsMount[] = [
      { dir: path.join(dir, 'logs'), size: LOG_DISK, fill: options.fullLogDisk === true ? LOG_DISK : 0 },
      { dir: path.join(dir, 'nodes'), size: NODE_DISK },
    ];
    const started = await startServe(
      path.join(dir, 'sluice.yaml'),
      { PORT: '0', DATABASE_URL: database?.url ?? '' },
      { prefix: inTmpfs(mounts), cwd: dir },
    );
    processes.push(started);
    return started;
  }

  async function enqueue(server: ServeProcess, change: number): Promise<void> {
    const response = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken('example')}` },
      body: JSON.stringify({
        query: `mutation ($input: EnqueueInput!) { enqueue(input: $input) { __typename ... on Error { message } } }`,
        variables: { input: { tenant: 'example', pipeline: 'check', project: 'org/app', change: `${change},1` } },
      }),
    });
    const body = (await response.json()) as { data?: { enqueue: { __typename: string } } };
    expect(body.data?.enqueue.__typename).toBe('ManagementEventAccepted');
  }

  async function rest<T>(server: ServeProcess, resource: string): Promise<T> {
    const response = await fetch(`${server.base}/api/tenant/example/${resource}`);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  }

  /** The builds of a change once `count` of them have a result, oldest first. */
  async function finishedBuilds(server: ServeProcess, change: number, count = 1): Promise<BuildRecord[]> {
    let builds: BuildRecord[] = [];
    await waitFor(
      `${count} finished builds of change ${change}`,
      async () => {
        builds = (await rest<BuildRecord[]>(server, `builds?change=${change}`)).filter((b) => b.result !== null);
        return builds.length >= count;
      },
      120_000,
    );
    return builds.reverse();
  }

  async function expectNodesReturned(server: ServeProcess): Promise<void> {
    await waitFor('the nodes returned', async () => {
      const nodes = await rest<Array<{ state: string }>>(server, 'nodes');
      const requests = await rest<unknown[]>(server, 'nodeset-requests');
      return nodes.every((node) => node.state !== 'in-use') && requests.length === 0;
    });
  }

  function killOrphanSteps(): void {
    killStep(marks, 'pid-4-1');
  }

  it('full log disks end builds ERROR with the reason and the process stays up, after a restart too', async () => {
    const files = { dir, baseDir: path.join(dir, 'repos') };
    for (const change of [1, 2, 4]) {
      await pushChange(files, change);
    }
    writeFileSync(path.join(marks, 'release'), '');
    const first = await serve();
    await enqueue(first, 1);
    await enqueue(first, 2);
    for (const change of [1, 2]) {
      const [build] = await finishedBuilds(first, change);
      expect(build.result).toBe('ERROR');
      expect(build.error_detail).toMatch(/^The build log could not be written: ENOSPC: no space left on device/);
    }
    expect(first.exit()).toBeUndefined();
    expect((await first.ready()).status).toBe(200);
    await expectNodesReturned(first);
    await first.stop();

    // A build runs when the process is killed (each process mounts fresh disks); the next
    // process starts on a full log disk and retries the lost build there.
    unlinkSync(path.join(marks, 'release'));
    const second = await serve();
    await enqueue(second, 4);
    await waitFor('the build of change 4 to run', () => existsSync(path.join(marks, 'started-4-1')));
    second.child.kill('SIGKILL');
    await second.exited;
    killOrphanSteps();
    writeFileSync(path.join(marks, 'release'), '');

    const third = await serve({ fullLogDisk: true });
    const [lost, retried] = await finishedBuilds(third, 4, 2);
    expect(lost).toMatchObject({ result: 'RETRY', error_detail: expect.stringMatching(/^Build request lost/) });
    expect(retried.result).toBe('ERROR');
    expect(retried.error_detail).toMatch(/^The build log could not be written: ENOSPC: no space left on device/);
    expect(third.exit()).toBeUndefined();
    expect((await third.ready()).status).toBe(200);
    await expectNodesReturned(third);
    await third.stop();
  });

  it('a workspace disk too small for the change ends the build ERROR naming the full disk, not MERGE_CONFLICT', async () => {
    // Random content: git cannot compress it below the node disk's size.
    await pushChange({ dir, baseDir: path.join(dir, 'repos') }, 3, {
      'blob.txt': randomBytes(3 * 1024 * 1024).toString('base64'),
    });
    const server = await serve();
    await enqueue(server, 3);
    const [build] = await finishedBuilds(server, 3);
    expect(build.result).toBe('ERROR');
    expect(build.error_detail).toMatch(/^Out of space preparing the repositories: .*No space left on device/s);
    expect((await server.ready()).status).toBe(200);
    await expectNodesReturned(server);
    await server.stop();
  });
});
