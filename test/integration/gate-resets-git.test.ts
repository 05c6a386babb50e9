/**
 * Gate resets with real git, the real executor and the server in one process
 * (docs/gating.md#resets): the quickstart project's unit test fails whenever any `fail-*.txt` is
 * in the tree it runs on, whoever brought it in. Changes 1-4 are in the gate, change 2 adds
 * `fail-2.txt`: 2 is rejected, and 1, 3 and 4 are merged, 3 and 4 after a reset that tested them
 * again on a state without 2. All four units start on the first speculative states (the script
 * waits for a release file until all four are enqueued), so 4's first run sees `fail-2.txt`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../src/sources/git-cli';
import { ENQUEUE } from '../helpers/gate-deployment';
import {
  QUICKSTART_PROJECT,
  QUICKSTART_TENANT,
  startQuickstartApp,
  type QuickstartApp,
} from '../helpers/quickstart-app';

jest.setTimeout(240_000);

/** The unit test: waits for the release, fails on any fail-*.txt in the tree, else the quickstart's test. */
function unitScript(release: string): string {
  return `#!/bin/sh
set -e
while [ ! -e '${release}' ]; do sleep 0.1; done
failing=$(ls fail-*.txt 2>/dev/null || true)
if [ -n "$failing" ]; then
  echo "FAILING: $failing"
  exit 1
fi
output=$(sh ./hello.sh Sluice)
test "$output" = "Hello, Sluice!"
echo "unit tests passed"
`;
}

/** Results of the change's gate buildsets, oldest first, and its final unit build's log. */
interface ChangeRecord {
  buildsets: Array<string | null>;
  unitLog: string;
}

describe('gate resets with real git: good changes behind a failing one are merged', () => {
  let qs: QuickstartApp;
  let scratch: string;
  let release: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-gate-resets-marks-'));
    release = path.join(scratch, 'release');
    qs = await startQuickstartApp('sluice-gate-resets-', {
      projectFiles: { 'scripts/unit.sh': unitScript(release) },
      configure: (config) => {
        config.executor.slots = 4;
      },
    });
  });

  afterAll(async () => {
    writeFileSync(release, '');
    await qs?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function enqueue(number: number): Promise<void> {
    const response = await fetch(`${qs.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${qs.token()}` },
      body: JSON.stringify({
        query: ENQUEUE,
        variables: {
          input: { tenant: QUICKSTART_TENANT, pipeline: 'gate', project: QUICKSTART_PROJECT, change: `${number},1` },
        },
      }),
    });
    const body = (await response.json()) as { data?: { enqueue: { __typename: string } } };
    expect(body.data?.enqueue.__typename).toBe('ManagementEventAccepted');
  }

  async function record(number: number): Promise<ChangeRecord> {
    const buildsets: Array<{ id: number; result: string | null }> = await qs.database
      .knex('buildsets')
      .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .where({ 'buildsets.tenant': QUICKSTART_TENANT, 'buildsets.pipeline': 'gate', 'refs.change': number })
      .orderBy('buildsets.id')
      .select('buildsets.id', 'buildsets.result');
    const last = buildsets[buildsets.length - 1];
    const unit: { log_url: string | null } | undefined = await qs.database
      .knex('builds')
      .where({ buildset_id: last?.id ?? 0, job_name: 'hello-unit', final: true })
      .first('log_url');
    const log = unit?.log_url ? await fetch(new URL(`${unit.log_url}job-output.txt`, qs.url())) : null;
    return { buildsets: buildsets.map((row) => row.result), unitLog: log ? await log.text() : '' };
  }

  async function onMaster(sha: string): Promise<boolean> {
    try {
      await git(qs.bareRepo, ['merge-base', '--is-ancestor', sha, 'refs/heads/master']);
      return true;
    } catch {
      return false;
    }
  }

  it('rejects change 2 (fail-2.txt) and merges 1, 3 and 4', async () => {
    const shas = new Map<number, string>();
    for (const number of [1, 2, 3, 4]) {
      const files: Record<string, string> = { [`notes-${number}.md`]: `Notes of change ${number}\n` };
      if (number === 2) {
        files['fail-2.txt'] = 'this change breaks the unit test of everything tested on top of it\n';
      }
      shas.set(number, await qs.pushChange(number, files, `Change ${number}`));
    }
    const from = qs.deltaCount();
    for (const number of [1, 2, 3, 4]) {
      await enqueue(number);
    }
    // All four items are in the gate, each prepared on top of the ones ahead and running its unit
    // job, before any unit ends (speculative merges are engine work: docs/gating.md#engine-work).
    for (const number of [1, 2, 3, 4]) {
      const enqueued = await qs.waitForDelta(
        from,
        (delta) => delta.type === 'item-enqueued' && delta.pipeline === 'gate' && delta.changeIds[0] === `${number},1`,
      );
      await qs.waitForDelta(
        from,
        (delta) =>
          delta.type === 'job-started' && enqueued.type === 'item-enqueued' && delta.itemUuid === enqueued.itemUuid,
      );
    }
    writeFileSync(release, '');
    const reported = new Map<number, string>();
    const reportedItems = new Set<string>();
    while (reportedItems.size < 4) {
      const delta = await qs.waitForDelta(
        from,
        (candidate) =>
          candidate.type === 'item-reported' && candidate.pipeline === 'gate' && !reportedItems.has(candidate.itemUuid),
      );
      if (delta.type === 'item-reported') {
        reportedItems.add(delta.itemUuid);
        reported.set(await changeOfItem(delta.itemUuid), delta.result);
      }
    }
    expect(Object.fromEntries(reported)).toEqual({ 1: 'SUCCESS', 2: 'FAILURE', 3: 'SUCCESS', 4: 'SUCCESS' });
    const records = new Map<number, ChangeRecord>();
    for (const number of [1, 2, 3, 4]) {
      records.set(number, await record(number));
    }
    expect(records.get(1)?.buildsets).toEqual(['SUCCESS']);
    expect(records.get(2)?.buildsets).toEqual(['FAILURE']);
    expect(records.get(2)?.unitLog).toContain('FAILING: fail-2.txt');
    // 3 and 4 were tested on top of 2 first; that buildset was closed and they were tested again.
    for (const number of [3, 4]) {
      expect(records.get(number)?.buildsets).toEqual(['DEQUEUED', 'SUCCESS']);
      expect(records.get(number)?.unitLog).toContain('unit tests passed');
    }
    expect(await onMaster(shas.get(1) ?? '')).toBe(true);
    expect(await onMaster(shas.get(2) ?? '')).toBe(false);
    expect(await onMaster(shas.get(3) ?? '')).toBe(true);
    expect(await onMaster(shas.get(4) ?? '')).toBe(true);
    expect((await git(qs.bareRepo, ['ls-tree', '--name-only', 'master'])).stdout).not.toContain('fail-2.txt');
  });

  /** The change an item holds, from the stored queue item. */
  async function changeOfItem(uuid: string): Promise<number> {
    const row: { changes: unknown } | undefined = await qs.database
      .knex('queue_items')
      .where({ uuid })
      .first('changes');
    const changes = (typeof row?.changes === 'string' ? JSON.parse(row.changes) : row?.changes) as Array<{
      number: number;
    }>;
    return changes[0].number;
  }
});
