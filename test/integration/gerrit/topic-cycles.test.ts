/**
 * `dependencies-by-topic` through the real server and the fake Gerrit (docs/gating.md#dependency-cycles):
 * `org/app` and `org/lib` share the queue `integrated`, which allows circular dependencies and
 * makes the changes of a topic depend on each other (Gerrit's `status:open topic:"X"` query).
 * The changes of a topic are checked as one item and submitted together; a change that joins
 * the topic after the item entered (a new upload) or leaves it (`topic-changed`) makes the item
 * leave and its changes enter again as they are now, as in the reference.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  eventually,
  GERRIT_PIPELINES,
  type GerritTenant,
  lastVote,
  startGerritGateTenant,
} from '../../helpers/gerrit-tenant';
import { appFiles, until } from '../../helpers/github-tenant';

jest.setTimeout(300_000);

const QUEUE = `
- queue:
    name: integrated
    allow-circular-dependencies: true
    dependencies-by-topic: true
`;

/** A project whose job `<short>-unit` (appFiles' unit.sh: held while HOLD's file exists) runs in check and gate. */
function projectFiles(short: string): Record<string, string> {
  return {
    ...appFiles(),
    '.zuul.yaml': `
- job:
    name: ${short}-unit
    run: unit.sh
- project:
    queue: integrated
    check:
      jobs: [${short}-unit]
    gate:
      jobs: [${short}-unit]
`,
  };
}

describe('dependencies by topic with the fake Gerrit', () => {
  let env: GerritTenant;
  let holds: string;

  beforeAll(async () => {
    holds = mkdtempSync(path.join(os.tmpdir(), 'sluice-topic-holds-'));
    env = await startGerritGateTenant({
      pipelines: `${GERRIT_PIPELINES}${QUEUE}`,
      app: projectFiles('app'),
      more: { 'org/lib': projectFiles('lib') },
    });
  });

  afterAll(async () => {
    await env?.stop();
    rmSync(holds, { recursive: true, force: true });
  });

  /** The items of `pipeline` in the status document, each as its sorted change numbers. */
  async function items(pipeline: string): Promise<number[][]> {
    const status = (await (await fetch(`${env.server.url}/api/tenant/acme/status`)).json()) as {
      pipelines: Array<{
        name: string;
        change_queues: Array<{ heads: Array<Array<{ live: boolean; refs: Array<{ id: string }> }>> }>;
      }>;
    };
    const found = status.pipelines.find((p) => p.name === pipeline);
    return (found?.change_queues ?? [])
      .flatMap((queue) => queue.heads.flat())
      .filter((item) => item.live)
      .map((item) => item.refs.map((ref) => Number(ref.id.split(',')[0])).sort((a, b) => a - b));
  }

  /** Wait until the live items of check holding any of `numbers` are exactly `expected`. */
  async function checkItemsBecome(numbers: number[], expected: number[][]): Promise<void> {
    let seen: number[][] = [];
    const holding = async () =>
      (seen = (await items('check')).filter((item) => item.some((number) => numbers.includes(number))));
    try {
      await eventually(`check items ${JSON.stringify(expected)}`, async () => {
        const now = await holding();
        return JSON.stringify([...now].sort()) === JSON.stringify([...expected].sort());
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}; last seen ${JSON.stringify(seen)}`);
    }
  }

  /** The ids of the check buildsets that hold change `number`, with their results. */
  async function checkBuildsets(number: number): Promise<Array<{ id: number; result: string | null }>> {
    return env.server.database
      .knex('buildsets')
      .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .where({ 'buildsets.pipeline': 'check', 'refs.change': number })
      .orderBy('buildsets.id')
      .select('buildsets.id', 'buildsets.result');
  }

  it('checks the changes of a topic as one item and submits them together', async () => {
    const { gerrit } = env;
    const hold = path.join(holds, 'pair');
    writeFileSync(hold, '');
    // The first upload enters check alone (its topic has no other change yet) and is held there
    // until the second one joins it.
    const app = await gerrit.upload('org/app', { subject: 'App side', files: { HOLD: hold }, topic: 'one' });
    const lib = await gerrit.upload('org/lib', { subject: 'Lib side', files: { HOLD: hold }, topic: 'one' });
    await checkItemsBecome([app.number, lib.number], [[app.number, lib.number]]);
    rmSync(hold);
    await until('Verified +1 on both', () => lastVote(app, 'Verified') === 1 && lastVote(lib, 'Verified') === 1);
    const reported = (await checkBuildsets(app.number)).filter((row) => row.result === 'SUCCESS');
    expect(reported).toHaveLength(1);
    expect((await checkBuildsets(lib.number)).filter((row) => row.result === 'SUCCESS')).toEqual(reported);
    gerrit.review(app.number, 'core', { 'Code-Review': 2 });
    gerrit.review(lib.number, 'core', { 'Code-Review': 2, Approved: 1 });
    gerrit.review(app.number, 'core', { Approved: 1 });
    await until('both submitted', () => app.status === 'MERGED' && lib.status === 'MERGED');
    expect([...gerrit.submitted].sort()).toEqual([`${app.number},1`, `${lib.number},1`].sort());
  });

  it('takes in a change that joins the topic and lets go of one that leaves it', async () => {
    const { gerrit } = env;
    const hold = path.join(holds, 'held');
    writeFileSync(hold, '');
    const held = { HOLD: hold };
    const app = await gerrit.upload('org/app', {
      subject: 'App two',
      files: { ...held, 'b.txt': 'b\n' },
      topic: 'two',
    });
    const lib = await gerrit.upload('org/lib', {
      subject: 'Lib two',
      files: { ...held, 'm.txt': 'm\n' },
      topic: 'two',
    });
    await checkItemsBecome([app.number, lib.number], [[app.number, lib.number]]);

    // A third change uploaded into the topic: the item leaves and the three enter as one.
    const late = await gerrit.upload('org/lib', {
      subject: 'Lib late',
      files: { ...held, 'n.txt': 'n\n' },
      topic: 'two',
    });
    const three = [app.number, lib.number, late.number];
    await checkItemsBecome(three, [three]);

    // The late change moves to another topic: it leaves the item, which enters again without it.
    gerrit.setTopic(late.number, 'elsewhere');
    await checkItemsBecome(three, [[app.number, lib.number], [late.number]]);
    rmSync(hold);
    await until(
      'Verified +1 on all three',
      () => lastVote(app, 'Verified') === 1 && lastVote(lib, 'Verified') === 1 && lastVote(late, 'Verified') === 1,
    );
    // The pair reported once, from one buildset; the late change from its own.
    const pair = (await checkBuildsets(app.number)).filter((row) => row.result === 'SUCCESS');
    expect(pair).toHaveLength(1);
    expect((await checkBuildsets(lib.number)).filter((row) => row.result === 'SUCCESS')).toEqual(pair);
    const alone = (await checkBuildsets(late.number)).filter((row) => row.result === 'SUCCESS');
    expect(alone).toHaveLength(1);
    expect(alone[0].id).not.toBe(pair[0].id);
  });
});
