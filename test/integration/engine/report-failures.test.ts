/**
 * A report that still fails after its driver's retries (docs/gating.md#engine-work) is recorded as
 * a `report-failed` system event, with what it was of, and the gate goes on: a failed start report
 * leaves the item to be tested and merged, and a failed success report before a merge into the
 * branch still lets the merge be made.
 */
import type { ReporterActions } from '../../../src/engine/ports/layout';
import type { ChangeReporter, ItemReport } from '../../../src/engine/ports/reporter';
import { SystemEventRepository } from '../../../src/store/repositories/system-events';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { FakeClock, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

/** A reporter that refuses the phases it is told to, as a code-review system that is down would. */
class RefusingReporter implements ChangeReporter {
  readonly made: string[] = [];
  constructor(private readonly refused: ReadonlySet<string>) {}

  report(report: ItemReport): Promise<void> {
    if (this.refused.has(report.phase)) {
      return Promise.reject(new Error(`503 Service Unavailable (${report.phase})`));
    }
    this.made.push(`${report.change.number ?? ''} ${report.phase}`);
    return Promise.resolve();
  }
}

const external: ReporterActions['external'] = [{ connection: 'review', driver: 'github', options: {} }];

function layoutOf(tenant: string) {
  const gate = pipeline('gate', 'dependent', { triggers: [], submit: true });
  gate.reporters = {
    ...gate.reporters,
    start: { ...gate.reporters.start, external },
    success: { ...gate.reporters.success, external },
  };
  return makeLayout({
    tenant,
    pipelines: [gate],
    projects: [{ name: 'org/project' }],
    jobs: { 'org/project': { gate: [job('unit')] } },
  });
}

describe('report failures', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  async function gate(refused: string[]) {
    const reporter = new RefusingReporter(new Set(refused));
    const changes = new FakeChanges();
    const harness = new EngineHarness(db, layoutOf(nextTenant()), { clock: new FakeClock(), changes, reporter });
    await harness.start();
    harness.changes.add('org/project', 1);
    await harness.enqueue('gate', 'org/project', '1,1');
    await harness.executor.finish('unit', 1, { result: 'SUCCESS' });
    await harness.settle();
    await harness.stop();
    const events = await new SystemEventRepository(db.knex).list(harness.tenant, {
      types: ['report-failed'],
      limit: 10,
      offset: 0,
    });
    return { harness, reporter, events };
  }

  it('records a failed start report and still tests and merges the change', async () => {
    const { harness, reporter, events } = await gate(['start']);
    expect(harness.reports()).toEqual(['1,1 gate SUCCESS']);
    expect(harness.merger.mergedOrder).toEqual([1]);
    expect(reporter.made).toEqual(['1 success']);
    expect(events.map((event) => [event.description, event.data])).toEqual([
      [
        'Report of git.example.com/org/project 1,1 in pipeline gate (start) failed: 503 Service Unavailable (start)',
        {
          pipeline: 'gate',
          phase: 'start',
          project: 'git.example.com/org/project',
          change: '1,1',
          error: '503 Service Unavailable (start)',
          buildsetUuid: expect.any(String),
        },
      ],
    ]);
    expect(harness.errors.filter((error) => !error.startsWith('report of tenant'))).toEqual([]);
  });

  it('records a failed success report made before the merge, and the merge is still made', async () => {
    const { harness, reporter, events } = await gate(['success']);
    expect(harness.reports()).toEqual(['1,1 gate SUCCESS']);
    expect(harness.merger.mergedOrder).toEqual([1]);
    expect(reporter.made).toEqual(['1 start']);
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ phase: 'success', change: '1,1', error: '503 Service Unavailable (success)' }),
    ]);
  });

  it('records nothing when every report is made', async () => {
    const { reporter, events } = await gate([]);
    expect(reporter.made).toEqual(['1 start', '1 success']);
    expect(events).toEqual([]);
  });
});
