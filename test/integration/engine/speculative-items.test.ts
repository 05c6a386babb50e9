/**
 * The engine's side of speculative layouts (docs/gating.md#speculative-layouts), with a scripted
 * merger and layout: the merge work is told where configuration lives and returns what the merged
 * state proposes; the item is frozen with the speculative layout (even for a project the live
 * layout has in no pipeline), an item whose proposal has errors reports them as `CONFIG_ERROR` (and
 * one with warnings adds the first to its reports), and
 * the proposal is dropped from the stored buildset once frozen (its digests stay, for the item
 * behind it to find the layout of the item ahead).
 */
import type { MergeOutcome } from '../../../src/engine/ports/merger';
import type { EngineLayout, FreezeOutcome, SpeculativeLayout } from '../../../src/engine/ports/layout';
import type { MergeItem } from '../../../src/model/changes';
import type { ConfigLocations, ProposedConfig } from '../../../src/model/proposed-config';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { ScriptedMerger } from '../../engine/scripted-gateways';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

const PROJECT = 'git.example.com/org/new';

/** A merger whose merged state proposes the `.zuul.yaml` text chosen per change number. */
class ConfigMerger extends ScriptedMerger {
  readonly proposals = new Map<number, string>();
  readonly locations: Array<ConfigLocations | undefined> = [];

  override async prepare(
    items: readonly MergeItem[],
    options?: { configLocations?: ConfigLocations },
  ): Promise<MergeOutcome> {
    this.locations.push(options?.configLocations);
    const outcome = await super.prepare(items);
    // The last change of the merge that proposes a text wins, as in a file changed twice.
    const text = items
      .map((item) => this.proposals.get(item.number ?? 0))
      .reverse()
      .find((found) => found !== undefined);
    if (!outcome.merged || text === undefined || options?.configLocations?.[PROJECT] === undefined) {
      return outcome;
    }
    return {
      ...outcome,
      files: ['.zuul.yaml'],
      config: [{ project: PROJECT, branch: 'master', files: [{ path: '.zuul.yaml', text }], ignoredLocations: [] }],
    };
  }
}

/** The live layout: org/new is in no pipeline; a proposal naming `broken` has an error, any other adds `extra` to check. */
function layoutWithSpeculation(tenant: string, calls: Array<{ proposed: string; ahead: string[] }> = []): EngineLayout {
  const live = makeLayout({
    tenant,
    pipelines: [pipeline('check', 'independent', { triggers: [] }), pipeline('gate', 'dependent', { triggers: [] })],
    projects: [{ name: 'org/new' }],
    jobs: {},
  });
  const textOf = (entry: ProposedConfig) => entry.files.map((file) => file.text).join('');
  const speculative = (
    proposed: readonly ProposedConfig[],
    ahead: readonly ProposedConfig[] = [],
  ): SpeculativeLayout => {
    const text = proposed.map(textOf).join('');
    calls.push({ proposed: text, ahead: ahead.map(textOf) });
    return {
      errors: text.includes('broken') ? ['Job nowhere not defined\n  in ".zuul.yaml", line 3'] : [],
      warnings: text.includes('(?!')
        ? ['Zuul encountered a deprecated syntax ...\n  in ".zuul.yaml", line 1', 'second']
        : [],
      freezeJobGraph: (): FreezeOutcome => ({ status: 'ok', jobs: [job('extra')], failFast: false }),
    };
  };
  return {
    ...live,
    configLocation: (project) => (project === PROJECT ? { extraConfigPaths: ['ci/'], dynamicBranches: [] } : null),
    speculative,
  };
}

describe('engine: items that change configuration', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let merger: ConfigMerger;
  let calls: Array<{ proposed: string; ahead: string[] }>;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    const changes = new FakeChanges();
    merger = new ConfigMerger(changes);
    calls = [];
    h = new EngineHarness(db, layoutWithSpeculation(nextTenant(), calls), { clock: new FakeClock(), changes, merger });
    await h.start();
  });

  afterEach(async () => {
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  it('runs the jobs of the proposed configuration, for a project the live layout has in no pipeline', async () => {
    h.changes.add('org/new', 1);
    merger.proposals.set(1, '- job: {name: extra}\n');
    await h.enqueue('check', 'org/new', '1,1');
    await h.settle();
    expect(merger.locations).toEqual([{ [PROJECT]: { extraConfigPaths: ['ci/'], dynamicBranches: [] } }]);
    expect([...h.executor.running.values()].map((build) => build.job.name)).toEqual(['extra']);
    const stored: Array<{ data: unknown }> = await db.knex('queue_items').select('data');
    expect(JSON.stringify(stored)).not.toContain('name: extra');
    await h.executor.finish('extra', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check SUCCESS']);
  });

  it('reports the errors of a broken proposal as CONFIG_ERROR and runs nothing', async () => {
    h.changes.add('org/new', 2);
    merger.proposals.set(2, '- job: {name: broken, parent: nowhere}\n');
    await h.enqueue('check', 'org/new', '2,1');
    await h.settle();
    expect(h.executor.running.size).toBe(0);
    expect(h.reports()).toEqual(['2,1 check CONFIG_ERROR']);
    const [buildset] = await h.buildsets();
    expect(buildset.message).toContain('in ".zuul.yaml", line 3');
  });

  it('adds the first warning of the proposal to the report, as the reference does', async () => {
    h.changes.add('org/new', 6);
    merger.proposals.set(6, '- job: {name: extra, branches: "^(?!stable)"}\n');
    await h.enqueue('check', 'org/new', '6,1');
    await h.settle();
    await h.executor.finish('extra', 6, { result: 'SUCCESS' });
    await h.settle();
    expect(h.reports()).toEqual(['6,1 check SUCCESS']);
    const [buildset] = await h.buildsets();
    expect(buildset.message).toMatch(
      /^Build succeeded\.\n\n- extra .*\n\nWarning:\n {2}Zuul encountered a deprecated syntax \.\.\.\n {2}in "\.zuul\.yaml", line 1$/,
    );
  });

  it('gives each item the proposal of the item ahead, for match-on-config-updates to compare with', async () => {
    for (const number of [3, 4, 5]) {
      h.changes.add('org/new', number);
    }
    merger.proposals.set(3, '- job: {name: extra, vars: {a: 1}}\n');
    merger.proposals.set(5, '- job: {name: extra, vars: {a: 2}}\n');
    for (const number of [3, 4, 5]) {
      await h.enqueue('gate', 'org/new', `${number},1`);
      await h.settle();
    }
    // 4 proposes what 3 did; 5 changes the same file again, so the live layout stands for 3's.
    expect(calls).toEqual([
      { proposed: '- job: {name: extra, vars: {a: 1}}\n', ahead: [] },
      { proposed: '- job: {name: extra, vars: {a: 1}}\n', ahead: ['- job: {name: extra, vars: {a: 1}}\n'] },
      { proposed: '- job: {name: extra, vars: {a: 2}}\n', ahead: [] },
    ]);
  });
});
