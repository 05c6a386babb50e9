/**
 * What happens to Gerrit changes already in the pipelines, and how they depend on each other,
 * through the real server and the fake Gerrit (docs/gerrit.md): `Workflow +1` with
 * `Code-Review +2` enters `gate`; a new patch set replaces the item in `check` and `gate`;
 * `Workflow` taken back dequeues it (the requirement re-checked); `change-abandoned` dequeues it.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appFiles, until } from '../../helpers/github-tenant';
import { gerritTenantYaml, itemsIn, startGerritTenant, type GerritTenant } from '../../helpers/gerrit-tenant';
import type { FakeChange } from '../../helpers/fake-gerrit/server';

jest.setTimeout(300_000);

/** The reference's own shape: `gate` on `Workflow +1`, requiring `Code-Review +2` and `Workflow +1`. */
const PIPELINES = `
- pipeline:
    name: check
    manager: independent
    trigger:
      gerrit:
        - event: patchset-created
    success:
      gerrit:
        Verified: 1
    failure:
      gerrit:
        Verified: -1
- pipeline:
    name: gate
    manager: dependent
    require:
      gerrit:
        open: true
        current-patchset: true
        approval:
          - Code-Review: 2
          - Workflow: 1
    trigger:
      gerrit:
        - event: comment-added
          approval:
            - Workflow: 1
    success:
      gerrit:
        Verified: 2
        submit: true
    failure:
      gerrit:
        Verified: -2
- nodeset:
    name: single-node
    nodes:
      - name: worker
        label: local
- job:
    name: base
    parent: null
    nodeset: single-node
    timeout: 600
`;

/** The last vote of `label` Sluice posted on the change. */
function lastVote(change: FakeChange, label: string, patchset?: string): number | undefined {
  return change.reviews
    .filter((r) => r.labels?.[label] !== undefined && (patchset === undefined || r.patchset === patchset))
    .at(-1)?.labels?.[label];
}

describe('Gerrit changes in the pipelines', () => {
  let env: GerritTenant;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-gerrit-holds-'));
    env = await startGerritTenant({
      projects: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': appFiles('merge-resolve') },
      tenantFile: gerritTenantYaml('org/config', ['org/app']),
      connection: { max_dependencies: 2 },
    });
    await env.gerrit.ssh.connected();
  });

  // A test that fails must not leave jobs of the next ones waiting behind held ones.
  afterEach(() => {
    for (const file of readdirSync(scratch)) {
      rmSync(path.join(scratch, file));
    }
  });

  afterAll(async () => {
    await env?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A file whose existence keeps the `unit` jobs of changes holding it running. */
  const hold = (name: string) => {
    const file = path.join(scratch, name);
    writeFileSync(file, '');
    return file;
  };
  const inPipeline = async (pipeline: string, id: string) => (await itemsIn(env.server, pipeline)).includes(id);
  const eventually = async (what: string, probe: () => Promise<boolean>) => {
    const deadline = Date.now() + 120_000;
    while (!(await probe())) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const approve = (change: FakeChange) => env.gerrit.review(change.number, 'core', { 'Code-Review': 2, Workflow: 1 });

  it('enters gate on Workflow +1 and replaces the item in check and gate with a new patch set', async () => {
    const { gerrit } = env;
    const held = hold('first');
    const change = await gerrit.upload('org/app', { subject: 'Slow', files: { HOLD: held } });
    const id = `${change.number},1`;
    await eventually('check', () => inPipeline('check', id));
    approve(change);
    await eventually('gate', () => inPipeline('gate', id));
    await gerrit.upload('org/app', { subject: 'Slow', change: change.number, files: { 'v2.txt': '2\n' } });
    await eventually('the new patch set checked', async () => lastVote(change, 'Verified', '2') === 1);
    expect(await itemsIn(env.server, 'check')).not.toContain(id);
    expect(await itemsIn(env.server, 'gate')).not.toContain(id);
    // The old patch set was never reported on, nor submitted.
    expect(lastVote(change, 'Verified', '1')).toBeUndefined();
    expect(change.status).toBe('NEW');
  });

  it('dequeues a gate item whose Workflow vote is taken back, and one whose change is abandoned', async () => {
    const { gerrit } = env;
    const held = hold('second');
    const taken = await gerrit.upload('org/app', { subject: 'Taken back', files: { HOLD: held } });
    const abandoned = await gerrit.upload('org/app', { subject: 'Abandoned', files: { HOLD: held, 'b.txt': 'b\n' } });
    approve(taken);
    approve(abandoned);
    await eventually('both in gate', async () => (await itemsIn(env.server, 'gate')).length === 2);
    gerrit.review(taken.number, 'core', { Workflow: 0 });
    await until('the requirement failure reported', () => lastVote(taken, 'Verified') === -2);
    expect(taken.reviews.at(-1)?.message).toMatch(/Workflow/);
    gerrit.abandon(abandoned.number);
    await eventually('the abandoned change dequeued', async () => (await itemsIn(env.server, 'gate')).length === 0);
    expect(await itemsIn(env.server, 'check')).not.toContain(`${abandoned.number},1`);
    expect([taken.status, abandoned.status]).toEqual(['NEW', 'ABANDONED']);
    expect(gerrit.submitted).toEqual([]);
  });
});
