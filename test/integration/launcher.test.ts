/**
 * Launcher with the local driver against a real store: nodeset requests fulfilled, quota waits,
 * nodeset alternatives, failures after launch attempts, min-ready pools, max-ready-age recycling,
 * holds with expiry, and cancellation. Time is the injected clock; each step is one launcher pass.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceConfig } from '../../src/config/service';
import { createLauncher, type Launcher } from '../../src/launcher/launcher';
import { StoreNodeLocker } from '../../src/launcher/node-lock';
import { nodeHold, nodeRelease, nodesetRequestCancel, setNodeState } from '../../src/launcher/operations';
import type { NodeInfo } from '../../src/model/pipeline-state';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/database';
import { launcherLayout, TestClock, TestLayouts, type LauncherLayoutSpec } from '../helpers/launcher-layout';

function spec(
  tenant: string,
  overrides: { instances?: number; launchAttempts?: number; minReady?: number; maxReadyAge?: number } = {},
): LauncherLayoutSpec {
  return {
    tenant,
    images: [
      { name: 'debian', type: 'cloud' },
      { name: 'built', type: 'zuul' },
    ],
    flavors: ['normal'],
    labels: [
      {
        name: 'small',
        image: 'debian',
        flavor: 'normal',
        minReady: overrides.minReady,
        maxReadyAge: overrides.maxReadyAge,
      },
      { name: 'custom', image: 'built', flavor: 'normal' },
    ],
    sections: [
      { name: 'local-section', connection: 'local', config: { 'launch-attempts': overrides.launchAttempts ?? 3 } },
    ],
    providers: [
      {
        name: 'local-main',
        section: 'local-section',
        config: {
          labels: ['small', 'custom'],
          images: ['debian', 'built'],
          flavors: ['normal'],
          ...(overrides.instances === undefined ? {} : { 'resource-limits': { instances: overrides.instances } }),
        },
      },
    ],
  };
}

describe.each(backends())('launcher (%s)', (backend) => {
  let database: TestDatabase;
  let root: string;
  let clock: TestClock;
  let layouts: TestLayouts;
  let launcher: Launcher;
  let counter = 0;

  function start(tenantSpec: LauncherLayoutSpec): void {
    layouts = new TestLayouts(launcherLayout(tenantSpec), launcherLayout({ tenant: 'other' }));
    const config: Pick<ServiceConfig, 'connections' | 'dataDir'> = {
      dataDir: root,
      connections: { local: { driver: 'local' } },
    };
    launcher = createLauncher({
      config,
      knex: database.knex,
      layouts,
      now: clock.now,
      uuid: () => `u${String((counter += 1)).padStart(6, '0')}`,
      id: 'launcher-test',
    });
  }

  async function request(
    id: string,
    labels: string[],
    extra: { alternatives?: string[][]; project?: string; buildset?: string } = {},
  ): Promise<void> {
    await launcher.gateway.requestNodes({
      id,
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: extra.buildset ?? `bs-${id}`,
      jobName: 'job',
      labels,
      priority: 200,
      ...extra,
    });
  }

  async function provisioned(requestId: string): Promise<{ fulfilled: boolean; nodes: NodeInfo[] } | null> {
    const rows: Array<{ payload: { requestId: string; fulfilled: boolean; nodes: NodeInfo[] } }> = await database
      .knex('engine_events')
      .where({ category: 'result', event_type: 'nodes-provisioned' });
    const found = rows.map((r) => r.payload).filter((p) => p.requestId === requestId);
    expect(found.length).toBeLessThanOrEqual(1);
    return found[0] ?? null;
  }

  beforeAll(async () => {
    database = await createTestDatabase({ backend });
  }, 120_000);

  afterAll(async () => {
    await database.destroy();
  });

  beforeEach(async () => {
    for (const table of ['nodes', 'nodeset_requests', 'engine_events', 'system_events']) {
      await database.knex(table).delete();
    }
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-'));
    clock = new TestClock();
    counter = 0;
  });

  afterEach(async () => {
    await launcher.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('fulfils a request with a local node, then deletes the node when it is returned', async () => {
    start(spec('acme'));
    await request('r1', ['small']);
    await launcher.runOnce();
    const result = await provisioned('r1');
    expect(result?.fulfilled).toBe(true);
    expect(result?.nodes).toHaveLength(1);
    const node = result?.nodes[0];
    expect(node).toMatchObject({ label: 'small', connectionType: 'local' });
    expect(typeof node?.path === 'string' && existsSync(node.path)).toBe(true);
    // Fulfilled nodes stay ready for the request until the executor locks them for the build.
    const nodeId = String(node?.id);
    expect(await launcher.context.repos.nodes.get(nodeId)).toMatchObject({
      state: 'ready',
      requestUuid: 'r1',
      lockHolder: null,
    });
    expect((await launcher.context.repos.requests.get('r1'))?.state).toBe('fulfilled');
    const locker = new StoreNodeLocker(database.knex, clock.now);
    expect(await locker.lock([nodeId], 'executor-a')).toBeNull();
    expect(await launcher.context.repos.nodes.get(nodeId)).toMatchObject({ state: 'in-use', lockHolder: 'executor-a' });
    // Locking again (the build re-run by another executor) keeps it in use.
    expect(await locker.lock([nodeId], 'executor-b')).toBeNull();
    expect(await locker.lock([nodeId, 'missing-node'], 'executor-b')).toBe('Node missing-node no longer exists');

    await launcher.gateway.returnNodes('acme', result?.nodes ?? []);
    expect(await launcher.context.repos.nodes.get(nodeId)).toMatchObject({ state: 'used', lockHolder: null });
    // A returned node cannot be locked again.
    expect(await locker.lock([nodeId], 'executor-c')).toBe(
      `Node ${nodeId} is used and assigned to no request; it cannot be locked for the build`,
    );
    await launcher.runOnce();
    expect(await launcher.context.repos.nodes.get(String(node?.id))).toBeNull();
    expect(existsSync(String(node?.path))).toBe(false);
    expect(await launcher.context.repos.requests.get('r1')).toBeNull();
  });

  it('waits for quota, then fulfils', async () => {
    start(spec('acme', { instances: 1 }));
    await request('r1', ['small']);
    await launcher.runOnce();
    const first = await provisioned('r1');
    expect(first?.fulfilled).toBe(true);

    await request('r2', ['small']);
    await launcher.runOnce();
    await launcher.runOnce();
    const waiting = await launcher.context.repos.requests.get('r2');
    expect(waiting?.state).toBe('requested');
    expect(await launcher.context.repos.nodes.listByRequest('r2')).toHaveLength(0);
    expect(await provisioned('r2')).toBeNull();

    await launcher.gateway.returnNodes('acme', first?.nodes ?? []);
    for (let pass = 0; pass < 3 && (await provisioned('r2')) === null; pass += 1) {
      await launcher.runOnce();
    }
    expect((await provisioned('r2'))?.fulfilled).toBe(true);
  });

  it('falls back to the next nodeset alternative when no provider serves a label', async () => {
    start(spec('acme'));
    await request('r1', ['gpu'], { alternatives: [['gpu'], ['small', 'small']] });
    await launcher.runOnce();
    await launcher.runOnce();
    const result = await provisioned('r1');
    expect(result?.fulfilled).toBe(true);
    expect(result?.nodes.map((n) => n.label)).toEqual(['small', 'small']);
    const stored = await launcher.context.repos.requests.get('r1');
    expect(stored).toMatchObject({
      labels: ['small', 'small'],
      alternativeIndex: 1,
      failureReason: 'No provider found for label gpu',
    });
  });

  it('fails the request after the provider used up its launch attempts', async () => {
    start(spec('acme', { launchAttempts: 2 }));
    // `custom` boots from the zuul image `built`, which has no upload: every launch fails.
    await request('r1', ['custom']);
    for (let pass = 0; pass < 4 && (await provisioned('r1')) === null; pass += 1) {
      await launcher.runOnce();
    }
    const result = await provisioned('r1');
    expect(result).toEqual({ type: 'nodes-provisioned', requestId: 'r1', fulfilled: false, nodes: [] });
    const stored = await launcher.context.repos.requests.get('r1');
    expect(stored?.state).toBe('failed');
    expect(stored?.failureReason).toBe('No provider found for label custom');
    expect(stored?.providerNodeData[0].failed_providers).toHaveLength(2);
    // The missing image was requested exactly once, however many passes ran.
    await launcher.runOnce();
    const builds = await database.knex('engine_events').where({ category: 'trigger', event_type: 'image-build' });
    expect(builds).toHaveLength(1);
    expect(builds[0].payload).toMatchObject({
      type: 'image-build',
      project: 'git.example.com/org/config',
      ref: 'refs/heads/master',
      imageNames: ['built'],
    });
    // Failed nodes are deleted.
    expect(await launcher.context.repos.nodes.listByStates(['failed'])).toHaveLength(0);
  });

  it('keeps the min-ready pool and serves requests from it', async () => {
    start(spec('acme', { minReady: 2 }));
    await launcher.runOnce();
    await launcher.runOnce();
    const pool = await launcher.context.repos.nodes.listByStates(['ready']);
    expect(pool).toHaveLength(2);
    expect(pool.every((n) => n.requestUuid === null && n.tenant === null)).toBe(true);

    await request('r1', ['small']);
    await launcher.runOnce();
    const result = await provisioned('r1');
    expect(result?.fulfilled).toBe(true);
    expect(pool.map((n) => n.uuid)).toContain(result?.nodes[0].id);
    await launcher.runOnce();
    const unassigned = (await launcher.context.repos.nodes.listByStates(['ready'])).filter(
      (n) => n.requestUuid === null,
    );
    expect(unassigned).toHaveLength(2);
  });

  it('recycles ready nodes older than max-ready-age', async () => {
    start(spec('acme', { minReady: 1, maxReadyAge: 60 }));
    await launcher.runOnce();
    await launcher.runOnce();
    const [first] = await launcher.context.repos.nodes.listByStates(['ready']);
    expect(first).toBeDefined();
    clock.advance(59);
    await launcher.runOnce();
    expect((await launcher.context.repos.nodes.get(first.uuid))?.state).toBe('ready');
    clock.advance(1);
    await launcher.runOnce();
    expect(await launcher.context.repos.nodes.get(first.uuid)).toBeNull();
    await launcher.runOnce();
    const [second] = await launcher.context.repos.nodes.listByStates(['ready']);
    expect(second.uuid).not.toBe(first.uuid);
  });

  it('holds nodes for autohold until the hold expires', async () => {
    start(spec('acme'));
    await request('r1', ['small']);
    await launcher.runOnce();
    const result = await provisioned('r1');
    await launcher.gateway.holdNodes('acme', result?.nodes ?? [], 'debug the failure', 3600);
    const id = String(result?.nodes[0].id);
    expect(await launcher.context.repos.nodes.get(id)).toMatchObject({
      state: 'hold',
      comment: 'debug the failure',
      holdExpiration: 3600,
    });
    clock.advance(3599);
    await launcher.runOnce();
    expect((await launcher.context.repos.nodes.get(id))?.state).toBe('hold');
    clock.advance(1);
    await launcher.runOnce();
    expect(await launcher.context.repos.nodes.get(id)).toBeNull();
  });

  it('fails a request at once when no provider has any quota for its label', async () => {
    start(spec('acme', { instances: 0 }));
    await request('r1', ['small']);
    await launcher.runOnce();
    expect((await provisioned('r1'))?.fulfilled).toBe(false);
    expect((await launcher.context.repos.requests.get('r1'))?.failureReason).toBe('No provider found for label small');
  });

  it('cancels a request: its nodes are let go and nothing is provisioned', async () => {
    start(spec('acme'));
    await request('r2', ['small']);
    await launcher.gateway.cancelRequest('acme', 'r2');
    expect(await launcher.context.repos.requests.get('r2')).toBeNull();
    await launcher.runOnce();
    expect(await provisioned('r2')).toBeNull();
    expect(await launcher.context.repos.nodes.listByStates(['requested', 'building', 'ready', 'in-use'])).toHaveLength(
      0,
    );
  });

  it('gives later changes of a busy project a lower relative priority', async () => {
    start(spec('acme', { instances: 0 }));
    await request('a1', ['small'], { project: 'org/busy', buildset: 'bs1' });
    clock.advance(1);
    await request('a2', ['small'], { project: 'org/busy', buildset: 'bs2' });
    clock.advance(1);
    await request('b1', ['small'], { project: 'org/quiet', buildset: 'bs3' });
    const priorities = await Promise.all(
      ['a1', 'a2', 'b1'].map(async (id) => (await launcher.context.repos.requests.get(id))?.relativePriority),
    );
    expect(priorities).toEqual([0, 1, 0]);
    expect(await launcher.context.repos.requests.openUuids(10)).toEqual(['a1', 'b1', 'a2']);
  });

  it('holds and releases nodes by admin request, with every error path', async () => {
    start(spec('acme'));
    await request('r1', ['small']);
    await launcher.runOnce();
    const id = String((await provisioned('r1'))?.nodes[0].id);
    const { context } = launcher;

    expect(await nodeHold(context, { tenant: 'acme', nodeId: 'missing' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Node not found' },
    });
    expect(await nodeHold(context, { tenant: 'other', nodeId: id })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Node not found' },
    });
    expect(await nodeRelease(context, { tenant: 'other', nodeId: id })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    expect(await setNodeState(context, { tenant: 'acme', nodeId: id, state: 'ready' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: 'Invalid request body' },
    });

    const held = await nodeHold(context, { tenant: 'acme', nodeId: id, comment: 'look at it', actor: 'alice' });
    expect(held).toMatchObject({ ok: true, value: { state: 'hold', comment: 'look at it', holdExpiration: null } });
    // An admin hold has no expiry.
    clock.advance(10 * 86400);
    await launcher.runOnce();
    expect((await context.repos.nodes.get(id))?.state).toBe('hold');

    expect(await nodeRelease(context, { tenant: 'acme', nodeId: id, actor: 'alice' })).toMatchObject({
      ok: true,
      value: { state: 'used' },
    });
    await launcher.runOnce();
    expect(await context.repos.nodes.get(id)).toBeNull();
    const events = await database.knex('system_events').orderBy('id');
    expect(events.map((e) => [e.event_type, e.description])).toEqual([
      ['node-held', `Node ${id} (small) held by alice: look at it`],
      ['node-released', `Node ${id} (small) released by alice`],
    ]);
  });

  it('cancels nodeset requests by admin request; the waiting job gets a failed provisioning', async () => {
    start(spec('acme', { instances: 1 }));
    const { context } = launcher;
    expect(await nodesetRequestCancel(context, { tenant: 'acme', requestId: 'missing' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Request not found' },
    });
    await request('r1', ['small']);
    await request('r2', ['small']);
    await launcher.runOnce();
    expect(await nodesetRequestCancel(context, { tenant: 'other', requestId: 'r2' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    expect(await nodesetRequestCancel(context, { tenant: 'acme', requestId: 'r2', actor: 'alice' })).toEqual({
      ok: true,
      value: null,
    });
    expect(await provisioned('r2')).toEqual({
      type: 'nodes-provisioned',
      requestId: 'r2',
      fulfilled: false,
      nodes: [],
    });
    expect(await context.repos.requests.get('r2')).toBeNull();
    const [event] = await database.knex('system_events');
    expect(event).toMatchObject({
      event_type: 'nodeset-request-canceled',
      description: 'Nodeset request r2 canceled by alice',
    });
  });

  it('never gives one node to two requests when two launchers run at once', async () => {
    start(spec('acme', { minReady: 3 }));
    const first = launcher;
    await first.runOnce();
    await first.runOnce();
    expect(await first.context.repos.nodes.listByStates(['ready'])).toHaveLength(3);
    const config: Pick<ServiceConfig, 'connections' | 'dataDir'> = {
      dataDir: root,
      connections: { local: { driver: 'local' } },
    };
    const second = createLauncher({
      config,
      knex: database.knex,
      layouts,
      now: clock.now,
      uuid: () => `v${String((counter += 1)).padStart(6, '0')}`,
      id: 'launcher-two',
    });
    for (const id of ['c1', 'c2', 'c3', 'c4']) {
      await request(id, ['small']);
    }
    for (let pass = 0; pass < 4; pass += 1) {
      await Promise.all([first.runOnce(), second.runOnce()]);
    }
    const results = await Promise.all(['c1', 'c2', 'c3', 'c4'].map((id) => provisioned(id)));
    expect(results.every((r) => r?.fulfilled === true)).toBe(true);
    const nodeIds = results.flatMap((r) => r?.nodes.map((n) => n.id) ?? []);
    expect(new Set(nodeIds).size).toBe(4);
    await second.stop();
  });
});
