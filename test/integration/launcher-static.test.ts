/**
 * The static driver over SSH: a host of a static provider (a real sshd on 127.0.0.1 started
 * here) serves one build at a time; the launcher scans its host key; the executor runs a real job
 * step on it over SSH with the host key pinned. Two-node nodesets (the same sshd on 127.0.0.2 and
 * 127.0.0.3 stands in for two more hosts): a step on the first node reaches the second with
 * `ssh -F "$SLUICE_SSH_CONFIG"` through the forwarded build agent, and a step on a local first
 * node reaches an SSH second node with the executor's key.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ServiceConfig } from '../../src/config/service';
import type { NodeInfo } from '../../src/model/pipeline-state';
import { toBuildNode } from '../../src/executor/build-request-params';
import { createLauncher, type Launcher } from '../../src/launcher/launcher';
import type { BuildNode, BuildNodeset } from '../../src/model/build-request';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import { launcherLayout, TestClock, TestLayouts } from '../helpers/launcher-layout';
import { describeIf, SSHD } from '../helpers/preconditions';
import { startSshd, type TestSshd } from '../helpers/sshd';

const REMOTE_STEP = `#!/bin/bash
set -eu
echo "running on $(hostname) via $SSH_CONNECTION"
printf '{"data": {"ssh": "%s", "pwd": "%s", "project": "%s"}}\\n' "$SSH_CONNECTION" "$PWD" "$SLUICE_PROJECT" > "$SLUICE_RESULTS_FILE"
`;

// Runs on the primary node: asks the node "peer" (by its alias) over SSH where it is.
const PAIR_STEP = `#!/bin/bash
set -eu
peer=$(ssh -F "$SLUICE_SSH_CONFIG" peer-alias 'echo "$SSH_CONNECTION"')
known_hosts=$(sed -n 's/^ *UserKnownHostsFile "\\(.*\\)"$/\\1/p' "$SLUICE_SSH_CONFIG" | head -n 1)
grep -q '"primary": "controller"' "$SLUICE_INVENTORY_FILE"
printf '{"data": {"primary": "%s", "peer": "%s", "node": "%s", "known_hosts": "%s", "workspace": "%s"}}\\n' "\${SSH_CONNECTION:-executor}" "$peer" "$SLUICE_NODE_NAME" "$known_hosts" "$SLUICE_WORKSPACE" > "$SLUICE_RESULTS_FILE"
`;

const PAIR: BuildNodeset = {
  name: 'pair',
  nodes: [
    { name: 'controller', aliases: [], label: 'pair-host' },
    { name: 'peer', aliases: ['peer-alias'], label: 'pair-host' },
  ],
  groups: [{ name: 'peers', nodes: ['peer'] }],
};

const describeWithSshd = describeIf(SSHD);

describeWithSshd('static provider over SSH', () => {
  let sshd: TestSshd;
  let harness: ExecutorHarness;
  let launcher: Launcher;
  let counter = 0;

  beforeAll(async () => {
    sshd = await startSshd({ extraAddresses: ['127.0.0.2', '127.0.0.3'] });
    harness = await createExecutorHarness(
      { 'remote.sh': { content: REMOTE_STEP, executable: true }, 'pair.sh': { content: PAIR_STEP, executable: true } },
      { sshKeyFiles: { static: sshd.clientKey } },
    );
    harness.worker.start();
    const layouts = new TestLayouts(
      launcherLayout({
        tenant: 'acme',
        images: [{ name: 'host-os', type: 'cloud' }],
        flavors: ['host'],
        labels: [
          { name: 'static-host', image: 'host-os', flavor: 'host' },
          { name: 'pair-host', image: 'host-os', flavor: 'host' },
        ],
        sections: [{ name: 'static-section', connection: 'static' }],
        providers: [
          {
            name: 'lab',
            section: 'static-section',
            config: {
              labels: ['static-host'],
              images: ['host-os'],
              flavors: ['host'],
              nodes: [
                { name: '127.0.0.1', labels: ['static-host'], 'connection-port': sshd.port, username: sshd.user },
              ],
            },
          },
          {
            name: 'pair-lab',
            section: 'static-section',
            config: {
              labels: ['pair-host'],
              images: ['host-os'],
              flavors: ['host'],
              nodes: ['127.0.0.2', '127.0.0.3'].map((name) => ({
                name,
                labels: ['pair-host'],
                'connection-port': sshd.port,
                username: sshd.user,
              })),
            },
          },
        ],
      }),
    );
    const config: Pick<ServiceConfig, 'connections' | 'dataDir'> = {
      dataDir: path.join(harness.root, 'data'),
      connections: { static: { driver: 'static' } },
    };
    launcher = createLauncher({
      config,
      knex: harness.database.knex,
      layouts,
      now: new TestClock().now,
      uuid: () => `s${String((counter += 1)).padStart(6, '0')}`,
      id: 'launcher-static',
    });
  }, 120_000);

  afterAll(async () => {
    await launcher?.stop();
    await harness?.close();
    await sshd?.stop();
  });

  async function provisioned(requestId: string): Promise<{ fulfilled: boolean; nodes: NodeInfo[] } | undefined> {
    const rows: Array<{ payload: { requestId: string; fulfilled: boolean; nodes: NodeInfo[] } }> =
      await harness.database.knex('engine_events').where({ event_type: 'nodes-provisioned' });
    return rows.map((r) => r.payload).find((p) => p.requestId === requestId);
  }

  it('gives the host to one build at a time and runs a job step on it over SSH', async () => {
    await launcher.gateway.requestNodes({
      id: 'r1',
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: 'bs1',
      jobName: 'remote',
      labels: ['static-host'],
      priority: 200,
    });
    await launcher.gateway.requestNodes({
      id: 'r2',
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: 'bs2',
      jobName: 'remote',
      labels: ['static-host'],
      priority: 200,
    });
    await launcher.runOnce();
    const first = await provisioned('r1');
    expect(first?.fulfilled).toBe(true);
    const info = first?.nodes[0];
    expect(info).toMatchObject({ connectionType: 'ssh', host: '127.0.0.1', port: sshd.port, username: sshd.user });
    expect((info?.hostKeys as string[]).some((line) => line.startsWith(`[127.0.0.1]:${sshd.port} ssh-ed25519 `))).toBe(
      true,
    );
    // The only host is busy: the second request waits.
    await launcher.runOnce();
    expect(await provisioned('r2')).toBeUndefined();

    const node = toBuildNode(info as NodeInfo) as BuildNode;
    // The key is the one of the node's connection (connections.static.sshKeyFile).
    expect(node.connection).toBe('static');
    await harness.enqueue('remote00build0001', { name: 'remote', run: [step('remote.sh')] }, { nodes: [node] });
    const completed = await harness.completion('remote00build0001');
    expect(completed.errorDetail).toBeNull();
    expect(completed.result).toBe('SUCCESS');
    expect(String(completed.data.ssh)).toMatch(/^127\.0\.0\.1 \d+ 127\.0\.0\.1 \d+$/);
    expect(String(completed.data.pwd)).toContain('/sluice-builds/remote00build0001/src/');
    expect(completed.data.project).toBe('org/app');

    await launcher.gateway.returnNodes('acme', first?.nodes ?? []);
    for (let pass = 0; pass < 3 && !(await provisioned('r2')); pass += 1) {
      await launcher.runOnce();
    }
    expect((await provisioned('r2'))?.fulfilled).toBe(true);
  });

  it('runs the steps on the first of two SSH nodes, which reaches the second through the inventory and the forwarded build agent', async () => {
    await launcher.gateway.requestNodes({
      id: 'p1',
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: 'bs3',
      jobName: 'pair',
      labels: ['pair-host', 'pair-host'],
      priority: 200,
    });
    await launcher.runOnce();
    const pair = await provisioned('p1');
    expect(pair?.fulfilled).toBe(true);
    const nodes = (pair?.nodes ?? []).map((info) => toBuildNode(info) as BuildNode);
    expect(nodes.map((node) => node.host)).toEqual(['127.0.0.2', '127.0.0.3']);

    await harness.enqueue('pair0000build0001', { name: 'pair', run: [step('pair.sh')] }, { nodes, nodeset: PAIR });
    const completed = await harness.completion('pair0000build0001');
    expect(completed.errorDetail).toBeNull();
    expect(completed.result).toBe('SUCCESS');
    // The step ran on 127.0.0.2 and its ssh to "peer" landed on 127.0.0.3.
    expect(String(completed.data.primary)).toMatch(/ 127\.0\.0\.2 \d+$/);
    expect(String(completed.data.peer)).toMatch(/ 127\.0\.0\.3 \d+$/);
    expect(completed.data.node).toBe('controller');
    // The SSH config on the node names the node's copy of the known_hosts file.
    const remoteWorkspace = String(completed.data.workspace);
    expect(remoteWorkspace).toMatch(/\/sluice-builds\/pair0000build0001$/);
    expect(completed.data.known_hosts).toBe(`${remoteWorkspace}/work/ssh/known_hosts`);
    await launcher.gateway.returnNodes('acme', pair?.nodes ?? []);
  });

  it('reaches an SSH second node from a local first node with the executor key', async () => {
    await launcher.gateway.requestNodes({
      id: 'p2',
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: 'bs4',
      jobName: 'pair',
      labels: ['pair-host'],
      priority: 200,
    });
    for (let pass = 0; pass < 3 && !(await provisioned('p2')); pass += 1) {
      await launcher.runOnce();
    }
    const peer = toBuildNode((await provisioned('p2'))?.nodes[0] as NodeInfo) as BuildNode;
    const dir = path.join(harness.root, 'node-controller');
    mkdirSync(dir, { recursive: true });
    const controller: BuildNode = {
      id: 'n-local',
      label: 'pair-host',
      connectionType: 'local',
      connection: 'local',
      host: 'localhost',
      port: null,
      username: null,
      path: dir,
      hostKeys: [],
    };

    await harness.enqueue(
      'pair0000build0002',
      { name: 'pair', run: [step('pair.sh')] },
      { nodes: [controller, peer], nodeset: PAIR },
    );
    const completed = await harness.completion('pair0000build0002');
    expect(completed.errorDetail).toBeNull();
    expect(completed.result).toBe('SUCCESS');
    expect(completed.data).toMatchObject({
      primary: 'executor',
      node: 'controller',
      workspace: dir,
      known_hosts: path.join(dir, 'work/ssh/known_hosts'),
    });
    expect(String(completed.data.peer)).toMatch(new RegExp(` ${peer.host?.replace(/\./g, '\\.') ?? ''} \\d+$`));
  });

  it('fails a build on an SSH node whose host key does not match', async () => {
    const wrongKey: BuildNode = {
      id: 'n-wrong',
      label: 'static-host',
      connectionType: 'ssh',
      connection: 'static',
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.user,
      path: null,
      hostKeys: [
        `[127.0.0.1]:${sshd.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMKmJUcMdQaeqVnH5TQUrjBvGQc8uJzY0WDbkYp0hJ0x`,
      ],
    };
    await harness.enqueue('remote00build0002', { name: 'remote', run: [step('remote.sh')] }, { nodes: [wrongKey] });
    const completed = await harness.completion('remote00build0002');
    expect(completed.result).toBe('NODE_FAILURE');
    expect(completed.errorDetail).toMatch(/^Copying the workspace to .* failed: [\s\S]*Host key verification failed/);
  });

  it('fails a build on an SSH node of a connection the executor has no key for', async () => {
    const keyless: BuildNode = {
      id: 'n-keyless',
      label: 'static-host',
      connectionType: 'ssh',
      connection: 'other-lab',
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.user,
      path: null,
      hostKeys: [],
    };
    await harness.enqueue('remote00build0003', { name: 'remote', run: [step('remote.sh')] }, { nodes: [keyless] });
    const completed = await harness.completion('remote00build0003');
    expect(completed.result).toBe('NODE_FAILURE');
    expect(completed.errorDetail).toBe('Node n-keyless is reached over SSH but this executor has no SSH key for it');
  });
});
