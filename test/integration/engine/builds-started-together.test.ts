/**
 * The builds a committed pass starts go to the executor together (docs/gating.md#performance):
 * with an executor that takes one build a call, the calls are made at the same time, not one
 * after the other, and the pass's side effects end once every call answered.
 */
import type { BuildParams } from '../../../src/engine/ports/executor';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { ScriptedExecutor } from '../../engine/scripted-gateways';
import { FakeClock, gitTrigger, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { FakeChanges } from '../../engine/fake-changes';

/** An executor whose start calls wait until released; counts how many were open at once. */
class HeldStarts extends ScriptedExecutor {
  open = 0;
  mostOpen = 0;
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });

  override async startBuild(params: BuildParams): Promise<void> {
    this.open += 1;
    this.mostOpen = Math.max(this.mostOpen, this.open);
    await this.gate;
    this.open -= 1;
    await super.startBuild(params);
  }

  letGo(): void {
    this.release();
  }
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('timed out');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('engine: builds started together', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('makes the start calls of a pass at the same time and finishes when all answered', async () => {
    const clock = new FakeClock();
    const changes = new FakeChanges();
    const executor = new HeldStarts(clock);
    const h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { check: [job('lint'), job('unit'), job('docs')] } },
      }),
      { clock, changes, executor },
    );
    await h.start();
    try {
      changes.add('org/project', 1);
      const settled = h.patchsetCreated('org/project', 1).then(() => h.settle());
      // One after the other, the second call would wait for the first, held here.
      await until(() => executor.mostOpen === 3);
      expect(executor.started).toEqual([]);
      executor.letGo();
      await settled;
      expect(executor.started.map((params) => params.job.name).sort()).toEqual(['docs', 'lint', 'unit']);
      expect(executor.open).toBe(0);
      await executor.finishAll();
      await h.settle();
      expect(h.reports()).toEqual(['1,1 check SUCCESS']);
    } finally {
      await h.stop();
    }
    expect(h.errors).toEqual([]);
  });
});
