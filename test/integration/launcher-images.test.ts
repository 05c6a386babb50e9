/**
 * Image build end to end: a real job (executor worker, real git repository) builds a tar image
 * and names it in its results file; the build is recorded as the engine's history writer does;
 * the launcher records the image build artifact (checksums of the produced file), uploads it to
 * each provider endpoint, a node boots from the validated upload, deletion is refused while the
 * node uses it and allowed afterwards. Also every error path of the image admin operations.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceConfig } from '../../src/config/service';
import type { NodeInfo } from '../../src/model/pipeline-state';
import { createLauncher, type Launcher } from '../../src/launcher/launcher';
import {
  imageBuild,
  imageBuildArtifactDelete,
  imageUploadDelete,
  imageUploadValidate,
} from '../../src/launcher/operations';
import { BuildRepository } from '../../src/store/repositories/builds';
import { BuildsetRepository } from '../../src/store/repositories/buildsets';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import { launcherLayout, TestClock, TestLayouts } from '../helpers/launcher-layout';

const BUILD_IMAGE = `#!/bin/bash
set -eu
mkdir -p "$TMPDIR/rootfs/etc"
echo "built by $SLUICE_JOB_NAME" > "$TMPDIR/rootfs/etc/motd"
image="$SLUICE_LOG_DIR/built.tar"
tar -C "$TMPDIR/rootfs" -cf "$image" etc
sum=$(sha256sum "$image" | cut -d' ' -f1)
cat > "$SLUICE_RESULTS_FILE" <<JSON
{"artifacts": [{"name": "built image", "url": "file://$image",
  "metadata": {"type": "zuul_image", "image_name": "built", "format": "tar", "sha256": "$sum"}}]}
JSON
`;

function layout(tenant: string) {
  return launcherLayout({
    tenant,
    images: [
      { name: 'built', type: 'zuul' },
      { name: 'debian', type: 'cloud' },
    ],
    flavors: ['normal'],
    labels: [
      { name: 'custom', image: 'built', flavor: 'normal' },
      { name: 'plain', image: 'debian', flavor: 'normal' },
    ],
    sections: [{ name: 'local-section', connection: 'local' }],
    providers: [
      {
        name: 'local-a',
        section: 'local-section',
        config: { labels: ['custom', 'plain'], images: ['built', 'debian'], flavors: ['normal'] },
      },
      {
        name: 'local-b',
        section: 'local-section',
        config: { labels: ['custom'], images: ['built'], flavors: ['normal'] },
      },
    ],
  });
}

describe('image builds and uploads', () => {
  let harness: ExecutorHarness;
  let launcher: Launcher;
  let clock: TestClock;
  let counter = 0;

  beforeAll(async () => {
    harness = await createExecutorHarness({ 'build-image.sh': { content: BUILD_IMAGE, executable: true } });
    harness.worker.start();
    clock = new TestClock();
    const config: Pick<ServiceConfig, 'connections' | 'dataDir'> = {
      dataDir: path.join(harness.root, 'data'),
      connections: { local: { driver: 'local' } },
    };
    launcher = createLauncher({
      config,
      knex: harness.database.knex,
      layouts: new TestLayouts(layout('acme'), layout('other')),
      now: clock.now,
      uuid: () => `u${String((counter += 1)).padStart(6, '0')}`,
      id: 'launcher-images',
    });
  }, 120_000);

  afterAll(async () => {
    await launcher.stop();
    await harness.close();
  });

  async function provisioned(requestId: string): Promise<{ fulfilled: boolean; nodes: NodeInfo[] } | undefined> {
    const rows: Array<{ payload: { requestId: string; fulfilled: boolean; nodes: NodeInfo[] } }> =
      await harness.database.knex('engine_events').where({ event_type: 'nodes-provisioned' });
    return rows.map((r) => r.payload).find((p) => p.requestId === requestId);
  }

  it('builds, uploads, validates, boots from and deletes an image', async () => {
    const { context } = launcher;
    // The providers need `built` and it has no artifact: one image-build trigger event.
    await launcher.runOnce();
    const triggers = await harness.database
      .knex('engine_events')
      .where({ category: 'trigger', event_type: 'image-build' })
      .orderBy('tenant');
    expect(triggers.map((t) => [t.tenant, t.payload.imageNames])).toEqual([
      ['acme', ['built']],
      ['other', ['built']],
    ]);

    // The image build job runs for real.
    await harness.enqueue(
      'image0000build0001',
      { name: 'build-built-image', run: [step('build-image.sh')] },
      { tenant: 'acme', pipeline: 'image-build' },
    );
    const completed = await harness.completion('image0000build0001');
    expect(completed.result).toBe('SUCCESS');
    const artifactUrl = completed.artifacts[0].url;
    const produced = readFileSync(new URL(artifactUrl));

    // The engine's history writer records the build with its artifacts.
    const { buildset } = await new BuildsetRepository(harness.database.knex).create({
      uuid: 'bs-image',
      tenant: 'acme',
      pipeline: 'image-build',
      refs: [],
      triggeredBy: 'image-build',
      at: clock.now(),
    });
    const builds = new BuildRepository(harness.database.knex);
    const build = await builds.start({
      buildsetId: buildset.id,
      uuid: 'image0000build0001',
      jobName: 'build-built-image',
      startTime: clock.now(),
    });
    await builds.complete(build.id, {
      result: 'SUCCESS',
      endTime: clock.now(),
      final: true,
      artifacts: completed.artifacts.map((a) => ({ name: a.name, url: a.url, metadata: a.metadata })),
    });

    await launcher.runOnce();
    const [artifact] = await context.repos.images.listArtifacts({});
    expect(artifact).toMatchObject({
      tenant: 'acme',
      name: 'built',
      format: 'tar',
      state: 'ready',
      validated: false,
      buildUuid: 'image0000build0001',
      sha256: createHash('sha256').update(produced).digest('hex'),
      md5sum: createHash('md5').update(produced).digest('hex'),
      url: artifactUrl,
    });
    const uploads = await context.repos.images.uploadsOfArtifacts([artifact.uuid]);
    expect(uploads.map((u) => u.endpointName).sort()).toEqual(['local/local-a', 'local/local-b']);
    expect(
      uploads.every(
        (u) => u.state === 'ready' && u.externalId === `built-${u.uuid}` && u.path !== null && existsSync(u.path),
      ),
    ).toBe(true);
    // Reporting is idempotent.
    await launcher.runOnce();
    expect(await context.repos.images.listArtifacts({})).toHaveLength(1);

    // Not validated yet: a node of `custom` finds no image.
    await launcher.gateway.requestNodes({
      id: 'r-unvalidated',
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: 'bs1',
      jobName: 'job',
      labels: ['custom'],
      priority: 200,
    });
    for (let pass = 0; pass < 8 && !(await provisioned('r-unvalidated')); pass += 1) {
      await launcher.runOnce();
    }
    expect((await provisioned('r-unvalidated'))?.fulfilled).toBe(false);

    // Validate both uploads (operator attestation); the next node boots from the newest one.
    for (const upload of uploads) {
      expect(await imageUploadValidate(context, { tenant: 'acme', uploadId: upload.uuid, actor: 'admin' })).toEqual({
        ok: true,
        value: null,
      });
    }
    await launcher.gateway.requestNodes({
      id: 'r-custom',
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: 'bs2',
      jobName: 'job',
      labels: ['custom'],
      priority: 200,
    });
    await launcher.runOnce();
    const result = await provisioned('r-custom');
    expect(result?.fulfilled).toBe(true);
    const nodeDir = String(result?.nodes[0].path);
    expect(readFileSync(path.join(nodeDir, 'etc', 'motd'), 'utf8')).toBe('built by build-built-image\n');
    const node = await context.repos.nodes.get(String(result?.nodes[0].id));
    const used = uploads.find((u) => u.uuid === node?.imageUploadUuid);
    expect(used).toBeDefined();
    const unused = uploads.find((u) => u.uuid !== node?.imageUploadUuid);

    // Deleting what a node uses is refused with a clear error.
    const refusedArtifact = await imageBuildArtifactDelete(context, { tenant: 'acme', artifactId: artifact.uuid });
    expect(refusedArtifact.ok).toBe(false);
    expect(!refusedArtifact.ok && refusedArtifact.error).toMatchObject({
      kind: 'conflict',
      message: `Image build artifact ${artifact.uuid} is in use by 1 node(s); release or delete them first`,
    });
    const refusedUpload = await imageUploadDelete(context, { tenant: 'acme', uploadId: String(used?.uuid) });
    expect(!refusedUpload.ok && refusedUpload.error.kind).toBe('conflict');

    // An unused upload can go at once.
    expect(await imageUploadDelete(context, { tenant: 'acme', uploadId: String(unused?.uuid) })).toEqual({
      ok: true,
      value: null,
    });
    await launcher.runOnce();
    expect(await context.repos.images.getUpload(String(unused?.uuid))).toBeNull();
    expect(existsSync(String(unused?.path))).toBe(false);

    // Once the node is returned and deleted, the artifact can be deleted; its uploads and files go too.
    await launcher.gateway.returnNodes('acme', result?.nodes ?? []);
    await launcher.runOnce();
    expect(
      await imageBuildArtifactDelete(context, { tenant: 'acme', artifactId: artifact.uuid, actor: 'admin' }),
    ).toEqual({ ok: true, value: null });
    await launcher.runOnce();
    expect(await context.repos.images.getArtifact(artifact.uuid)).toBeNull();
    expect(existsSync(String(used?.path))).toBe(false);
    const events = await harness.database.knex('system_events').orderBy('id').select('event_type');
    expect(events.map((e) => e.event_type)).toEqual([
      'image-upload-validated',
      'image-upload-validated',
      'image-upload-deleted',
      'image-artifact-deleted',
    ]);
  });

  it('reports every error of the image operations', async () => {
    const { context } = launcher;
    expect(await imageBuild(context, { tenant: 'acme', imageName: 'nope' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Image not found in tenant' },
    });
    expect(await imageBuild(context, { tenant: 'acme', imageName: 'debian' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Image not found in tenant' },
    });
    expect(await imageBuild(context, { tenant: 'unknown', imageName: 'built' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    const built = await imageBuild(context, { tenant: 'acme', imageName: 'built', actor: 'admin' });
    expect(built.ok).toBe(true);
    const again = await imageBuild(context, { tenant: 'acme', imageName: 'built', actor: 'admin' });
    expect(again.ok && built.ok && again.value.eventId !== built.value.eventId).toBe(true);

    expect(await imageBuildArtifactDelete(context, { tenant: 'acme', artifactId: 'missing' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Image build artifact not found in tenant' },
    });
    expect(await imageUploadDelete(context, { tenant: 'acme', uploadId: 'missing' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Image upload not found in tenant' },
    });
    expect(await imageUploadValidate(context, { tenant: 'acme', uploadId: 'missing' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', message: 'Image upload not found in tenant' },
    });

    // An artifact of tenant acme, with one pending upload.
    const artifact = await context.repos.images.createArtifact(
      {
        uuid: 'art-1',
        tenant: 'acme',
        canonicalName: 'x/built',
        name: 'built',
        projectCanonicalName: null,
        projectBranch: null,
        buildUuid: 'b-1',
        artifactName: 'img',
        format: 'tar',
        md5sum: 'm',
        sha256: 's',
        url: 'file:///nonexistent',
        timestamp: clock.now(),
        validated: false,
      },
      clock.now(),
    );
    expect(artifact).not.toBeNull();
    const upload = await context.repos.images.createUpload(
      {
        uuid: 'up-1',
        artifactUuid: 'art-1',
        canonicalName: 'x/built',
        endpointName: 'elsewhere',
        providers: [],
        configHash: null,
        validated: false,
      },
      clock.now(),
    );
    // Another tenant cannot see or delete it.
    expect(await imageBuildArtifactDelete(context, { tenant: 'other', artifactId: 'art-1' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    expect(await imageUploadDelete(context, { tenant: 'other', uploadId: upload.uuid })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    expect(await imageUploadValidate(context, { tenant: 'other', uploadId: upload.uuid })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    // Validating an upload that is not ready is a conflict.
    expect(await imageUploadValidate(context, { tenant: 'acme', uploadId: upload.uuid })).toMatchObject({
      ok: false,
      error: { kind: 'conflict', message: 'Image upload up-1 is pending, not ready' },
    });
  });

  it('puts an upload abandoned by a crashed launcher of this host back in the queue on start', async () => {
    const { context } = launcher;
    const file = path.join(harness.root, 'abandoned.tar');
    writeFileSync(file, 'an image\n');
    const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    await context.repos.images.createArtifact(
      {
        uuid: 'art-crash',
        tenant: 'acme',
        canonicalName: 'git.example.com%2Forg%2Fconfig/built',
        name: 'built',
        projectCanonicalName: null,
        projectBranch: null,
        buildUuid: 'b-crash',
        artifactName: 'img',
        format: 'tar',
        md5sum: createHash('md5').update(readFileSync(file)).digest('hex'),
        sha256,
        url: `file://${file}`,
        timestamp: clock.now(),
        validated: true,
      },
      clock.now(),
    );
    const crashedPid = spawnSync('true').pid;
    const holders: Record<string, string | null> = {
      crashed: `${os.hostname()}-${crashedPid}-0badf00d`,
      nobody: null,
      alive: `${os.hostname()}-${process.pid}-00c0ffee`,
      remote: 'another-host-4242-0badf00d',
    };
    for (const [name, holder] of Object.entries(holders)) {
      await context.repos.images.createUpload(
        {
          uuid: `up-${name}`,
          artifactUuid: 'art-crash',
          canonicalName: 'git.example.com%2Forg%2Fconfig/built',
          endpointName: 'local/local-a',
          providers: [],
          configHash: null,
          validated: true,
        },
        clock.now(),
      );
      await context.repos.images.updateUpload(`up-${name}`, { state: 'uploading', lockHolder: holder }, clock.now());
    }

    const config: Pick<ServiceConfig, 'connections' | 'dataDir'> = {
      dataDir: path.join(harness.root, 'data'),
      connections: { local: { driver: 'local' } },
    };
    const restarted = createLauncher({
      config,
      knex: harness.database.knex,
      layouts: new TestLayouts(layout('acme'), layout('other')),
      now: clock.now,
      id: 'launcher-restarted',
    });
    await restarted.runOnce();
    const state = async (name: string) => (await context.repos.images.getUpload(`up-${name}`))?.state;
    // Abandoned ones were queued again and uploaded; a live launcher's and another host's are left alone.
    expect([await state('crashed'), await state('nobody'), await state('alive'), await state('remote')]).toEqual([
      'ready',
      'ready',
      'uploading',
      'uploading',
    ]);
    await restarted.stop();
  });
});
